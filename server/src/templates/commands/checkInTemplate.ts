import { eq } from 'drizzle-orm';
import * as Y from 'yjs';
import { ERR, TEMPLATE_STATE, templateDocumentName, withStatuses, type CallAnswer, type CallRequest, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { snapshotOfState } from '../../collab/documents/contentSnapshots.js';
import { loadDocumentState } from '../../collab/persistence/documentStore.js';
import { templateDrafts, templateRevisions, templates } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { checkClientList } from '../../notes/clientList.js';
import { assertContentRules } from '../../notes/contentCheck.js';
import { versionFingerprint } from '../../notes/versionFingerprint.js';
import type { Services } from '../../services.js';
import { notify } from '../../notifications/notify.js';
import { approvedBaseline } from './draft.js';
import { canWriteTemplate, templateOpenForWriting, WRITE_REFUSALS } from '../policy.js';
import { lockTemplate, requireReadableTemplate } from '../queries.js';

const EMPTY_STATE = Y.encodeStateAsUpdate(new Y.Doc());

/**
 * Checks the draft in as a new revision waiting for approval: what is stored is the server's copy of the
 * live document, read inside the transaction that locks the template, so every live update is either in
 * it or refused after it. `version` is the revision the client saw: two racing check-ins make one winner
 * (9006). The draft turns read-only for everyone until it is approved or sent back.
 */
export async function checkInTemplate(
  services: Services,
  actor: Actor,
  input: CallRequest<typeof api.templates.checkIn>,
): Promise<CallAnswer<typeof api.templates.checkIn>> {
  const { db, live } = services;
  const template = await requireReadableTemplate(db, actor.user, input.templateNo);
  enforce(canWriteTemplate(actor.user, template), WRITE_REFUSALS);
  if (input.version !== template.revision) throw new AppError(ERR.conflict, { data: { version: template.revision } });
  const documentName = templateDocumentName(template.templateNo);
  const baseline = await approvedBaseline(db, template);
  await live.persistence.flushDocument(documentName);
  return live.transaction(db, async (tx, commands) => {
    const locked = await lockTemplate(tx, template.templateNo, 'update');
    if (!locked || !templateOpenForWriting(locked)) throw new AppError(ERR.templateNotDraft);
    if (locked.revision !== template.revision) throw new AppError(ERR.conflict, { data: { version: locked.revision } });
    const state = (await loadDocumentState(tx, documentName)) ?? EMPTY_STATE;
    const content = snapshotOfState(state);
    assertContentRules(content, baseline);
    const blocks = content.savedBlocks('TEMPLATE');
    checkClientList(services, template.templateNo, input.blockList, withStatuses(blocks, baseline.blocks));
    const blocksHash = versionFingerprint(blocks);
    const revision = locked.revision + 1;
    await tx
      .insert(templateRevisions)
      .values({ templateNo: template.templateNo, revision, blocks, blocksHash, documentState: state, checkedByUserNo: actor.user.userNo });
    await tx
      .update(templates)
      .set({ state: TEMPLATE_STATE.checking, revision, updatedAt: new Date() })
      .where(eq(templates.templateNo, template.templateNo));
    await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'template.checked',
      target: { type: 'template', id: template.templateNo },
      before: { state: TEMPLATE_STATE.draft, revision: locked.revision },
      after: { state: TEMPLATE_STATE.checking, revision, blocksHash, blocks: blocks.length },
    });
    // Checked in by an administrator carrying on the author's draft: the author hears of it.
    await notify(tx, {
      event: 'templateChecked',
      recipients: [template.authorUserNo],
      actorUserNo: actor.user.userNo,
      templateNo: template.templateNo,
    });
    commands.endWriting(documentName, null, 'checked');
    return { revision, blocksHash };
  });
}
