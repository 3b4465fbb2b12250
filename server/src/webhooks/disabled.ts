import type { Tx } from '../db/client.js';
import { notify } from '../notifications/notify.js';

/** Tells an endpoint's owner that the server turned it off (in the transaction that does so). */
export async function notifyEndpointDisabled(
  tx: Tx,
  endpoint: { endpointId: number; ownerUserNo: number; projectNo: number | null; url: string },
): Promise<void> {
  await notify(tx, {
    event: 'webhookDisabled',
    recipients: [endpoint.ownerUserNo],
    actorUserNo: null,
    projectNo: endpoint.projectNo,
    payload: { file: endpoint.url, endpointId: endpoint.endpointId },
  });
}
