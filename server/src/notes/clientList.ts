import { blockListsDiffer, type Block } from '@eln/shared';
import { tableText } from '../collab/contentSnapshots.js';
import type { Services } from '../services.js';

/** Compares the client's list with the server's and logs a mismatch: the server's list is the record. */
export function checkClientList(services: Pick<Services, 'log'>, noteNo: number, client: readonly Block[], server: readonly Block[]): boolean {
  const strip = (list: readonly Block[]) => list.filter((b) => b.blockStatus !== 'DELETE');
  const matches = !blockListsDiffer(strip(client), strip(server), tableText);
  if (!matches) services.log.warn({ noteNo, client: client.length, server: server.length }, 'client block list differs from the server document');
  return matches;
}
