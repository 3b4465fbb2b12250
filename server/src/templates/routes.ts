import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as Y from 'yjs';
import {
  AUDIT_SYSTEM_REASONS,
  blocksToDoc,
  compareTemplateVersions,
  contentViolations,
  differsFromSaved,
  emptyRequest,
  ERR,
  formatTemplateVersion,
  NOTE_BODY_LIMIT,
  parseTemplateVersion,
  TEMPLATE_STATE,
  templateApproveRequest,
  templateCreateRequest,
  templateDocumentName,
  templateListRequest,
  templateNoRequest,
  templateRenameRequest,
  templateReturnRequest,
  templateSaveRequest,
  templateTempRequest,
  templateViewerRequest,
  withStatuses,
  type Block,
  type SavedBlock,
  type TempAnswer,
  type TemplateEditorAnswer,
  type TemplateViewerAnswer,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import { confirmPassword } from '../auth/passwordConfirmation.js';
import { blockAuthors } from '../collab/authors/clientAuthors.js';
import { snapshotOfState, tableText } from '../collab/documents/contentSnapshots.js';
import { loadDocumentState } from '../collab/persistence/documentStore.js';
import { isUniqueViolation } from '../db/errors.js';
import { templateDrafts, templateRevisions, templates } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import { checkClientList, checkClientListAfterAnswer } from '../notes/clientList.js';
import { assertContentRules, type SavedContent } from '../notes/contentCheck.js';
import { tempAnswer } from '../notes/drafts.js';
import { versionFingerprint } from '../notes/versionFingerprint.js';
import type { Services } from '../services.js';
import {
  APPROVE_REFUSALS,
  canApproveTemplate,
  canDeleteTemplate,
  canEditTemplate,
  canManageTemplates,
  canWriteTemplate,
  DELETE_REFUSALS,
  EDIT_REFUSALS,
  MANAGE_REFUSALS,
  templateOpenForWriting,
  WRITE_REFUSALS,
  type Caller,
} from './policy.js';
import {
  approvedContent,
  approvedTemplates,
  lastApprovedVersion,
  listTemplates,
  lockTemplate,
  requireReadableTemplate,
  revisionOf,
  templateDetail,
  titleTaken,
  waitingRevision,
  type TemplateRecord,
} from './queries.js';

const EMPTY_STATE = Y.encodeStateAsUpdate(new Y.Doc());

function refuseDuplicateTitle(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError(ERR.templateDuplicate);
  throw error;
}

/** The content a draft is compared with: its last approved version (nothing before the first). */
async function approvedBaseline(services: Services, template: TemplateRecord): Promise<SavedContent> {
  const approved = await approvedContent(services.db, template);
  const blocks = approved?.blocks ?? [];
  return { blocks, violations: contentViolations(blocksToDoc(blocks)) };
}

/** Templates: the library notes start from, drafted live, checked in by their authors, approved by someone else. */
export function registerTemplateRoutes(app: FastifyInstance, services: Services): void {
  const { db, live, config } = services;
  const manage = (user: Caller) => enforce(canManageTemplates(user), MANAGE_REFUSALS);

  /** The live draft's blocks, with their statuses against the last approved version. */
  const draftBlocks = async (template: TemplateRecord) => {
    const content = await live.snapshot(templateDocumentName(template.templateNo));
    const baseline = await approvedBaseline(services, template);
    const current = content.savedBlocks('TEMPLATE');
    return { content, baseline, current, changed: differsFromSaved(current, baseline.blocks, tableText) };
  };

  defineRoute(app, services, {
    path: '/v1/template/list',
    access: 'user',
    failure: ERR.templateLookup,
    body: templateListRequest,
    handler: ({ body, user }) => listTemplates(db, user, body, config.timeZone),
  });

  defineRoute(app, services, {
    path: '/v1/template/list/all',
    access: 'user',
    failure: ERR.templateLookup,
    body: emptyRequest,
    handler: async () => ({ list: await approvedTemplates(db) }),
  });

  defineRoute(app, services, {
    path: '/v1/template/create',
    access: 'user',
    body: templateCreateRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      if (await titleTaken(db, body.title)) throw new AppError(ERR.templateDuplicate);
      return db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(templates)
            .values({ title: body.title, description: body.description, authorUserNo: user.userNo })
            .returning();
          if (!created) throw new Error('template insert returned nothing');
          await appendAudit(tx, {
            actor: user,
            action: 'template.created',
            target: { type: 'template', id: created.templateNo },
            after: { title: created.title, description: created.description },
            clientAddress,
          });
          return { templateNo: created.templateNo };
        })
        .catch(refuseDuplicateTitle);
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/update/title',
    access: 'user',
    body: templateRenameRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      const template = await requireReadableTemplate(db, user, body.templateNo);
      if (await titleTaken(db, body.title, template.templateNo)) throw new AppError(ERR.templateDuplicate);
      const description = body.description ?? template.description;
      if (template.title === body.title && template.description === description) return null;
      await db
        .transaction(async (tx) => {
          await tx
            .update(templates)
            .set({ title: body.title, description, updatedAt: new Date() })
            .where(eq(templates.templateNo, template.templateNo));
          await appendAudit(tx, {
            actor: user,
            action: 'template.renamed',
            target: { type: 'template', id: template.templateNo },
            before: { title: template.title, description: template.description },
            after: { title: body.title, description },
            clientAddress,
          });
        })
        .catch(refuseDuplicateTitle);
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/search',
    access: 'user',
    body: templateNoRequest,
    async handler({ body, user, clientAddress }) {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      enforce(canEditTemplate(user, template), EDIT_REFUSALS);
      if (template.state === TEMPLATE_STATE.approved) {
        // Editing an approved template starts a new draft from it; the approved version stays as it is.
        await db.transaction(async (tx) => {
          const locked = await lockTemplate(tx, template.templateNo, 'update');
          if (locked?.state !== TEMPLATE_STATE.approved) return;
          await tx
            .update(templates)
            .set({ state: TEMPLATE_STATE.draft, updatedAt: new Date() })
            .where(eq(templates.templateNo, template.templateNo));
          const version = await lastApprovedVersion(tx, locked);
          await appendAudit(tx, {
            actor: user,
            action: 'template.reopened',
            target: { type: 'template', id: template.templateNo },
            before: { state: TEMPLATE_STATE.approved, version: version && formatTemplateVersion(version) },
            after: { state: TEMPLATE_STATE.draft },
            clientAddress,
          });
        });
      }
      return templateDetail(db, user, template.templateNo);
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/editor',
    access: 'user',
    failure: ERR.templateLookup,
    body: templateNoRequest,
    async handler({ body, user }): Promise<TemplateEditorAnswer> {
      manage(user);
      const template = await requireReadableTemplate(db, user, body.templateNo);
      const { current } = await draftBlocks(template);
      return { template: await templateDetail(db, user, template.templateNo), blockList: current };
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/viewer',
    access: 'user',
    body: templateViewerRequest,
    async handler({ body, user }): Promise<TemplateViewerAnswer> {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      const wanted = body.revision ?? template.approvedRevision ?? (template.revision > 0 ? template.revision : null);
      const row = wanted === null ? undefined : await revisionOf(db, template.templateNo, wanted);
      // Those who cannot manage templates see approved versions only.
      if (!row || (!row.approvedAt && canManageTemplates(user) !== 'allowed'))
        throw new AppError(row || wanted === null ? ERR.templateNotApproved : ERR.notFound);
      const detail = await templateDetail(db, user, template.templateNo);
      const revision = detail.revisions.find((r) => r.revision === row.revision);
      if (!revision) throw new AppError(ERR.notFound);
      const authors = await blockAuthors(db, templateDocumentName(template.templateNo), new Uint8Array(row.documentState));
      return { template: detail, revision, blockList: row.blocks as SavedBlock[], authors };
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/temp',
    access: 'user',
    body: templateTempRequest,
    bodyLimit: NOTE_BODY_LIMIT,
    async handler({ body, user }): Promise<TempAnswer> {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      enforce(canWriteTemplate(user, template), WRITE_REFUSALS);
      const { content, baseline, current, changed } = await draftBlocks(template);
      assertContentRules(content, baseline);
      const blocks = withStatuses(current, baseline.blocks);
      const savedAt = new Date();
      // A draft is derived from the live document (stored synchronously): its commit need not wait for the disk.
      await services.draftsDb
        .insert(templateDrafts)
        .values({ templateNo: template.templateNo, blocks, savedByUserNo: user.userNo, savedAt })
        .onConflictDoUpdate({ target: templateDrafts.templateNo, set: { blocks, savedByUserNo: user.userNo, savedAt } });
      // Scheduled last: nothing awaits between here and the answer going out, so it runs after.
      checkClientListAfterAnswer(services, template.templateNo, body.blockList, blocks);
      return tempAnswer(blocks, changed, savedAt);
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/save',
    access: 'user',
    failure: ERR.saveFailed,
    body: templateSaveRequest,
    bodyLimit: NOTE_BODY_LIMIT,
    async handler({ body, user, clientAddress }) {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      enforce(canWriteTemplate(user, template), WRITE_REFUSALS);
      if (body.version !== template.revision) throw new AppError(ERR.conflict, { data: { version: template.revision } });
      return checkIn(services, user, template, body.blockList, clientAddress);
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/approve',
    access: 'user',
    body: templateApproveRequest,
    handler: ({ body, user, clientAddress }) => approve(services, user, body, clientAddress),
  });

  defineRoute(app, services, {
    path: '/v1/template/return',
    access: 'user',
    body: templateReturnRequest,
    async handler({ body, user, clientAddress }) {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      const waiting = await waitingRevision(db, template);
      enforce(canApproveTemplate(user, template, waiting?.checkedByUserNo ?? null), APPROVE_REFUSALS);
      if (body.revision !== template.revision) throw new AppError(ERR.conflict, { data: { revision: template.revision } });
      await db.transaction(async (tx) => {
        const locked = await lockTemplate(tx, template.templateNo, 'update');
        if (locked?.state !== TEMPLATE_STATE.checking || locked.revision !== body.revision) throw new AppError(ERR.templateNotChecking);
        await tx
          .update(templateRevisions)
          .set({ returnedAt: new Date(), returnReason: body.reason })
          .where(and(eq(templateRevisions.templateNo, template.templateNo), eq(templateRevisions.revision, body.revision)));
        await tx
          .update(templates)
          .set({ state: TEMPLATE_STATE.draft, updatedAt: new Date() })
          .where(eq(templates.templateNo, template.templateNo));
        await appendAudit(tx, {
          actor: user,
          action: 'template.returned',
          target: { type: 'template', id: template.templateNo },
          before: { state: TEMPLATE_STATE.checking, revision: body.revision },
          after: { state: TEMPLATE_STATE.draft },
          reason: body.reason,
          clientAddress,
        });
      });
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/clear',
    access: 'user',
    body: templateNoRequest,
    async handler({ body, user }) {
      const template = await requireReadableTemplate(db, user, body.templateNo);
      // Leaving without checking in: the caller's temporary save is discarded and their editor released.
      await live.endWriting(templateDocumentName(template.templateNo), user.userNo, 'cleared');
      await db
        .delete(templateDrafts)
        .where(and(eq(templateDrafts.templateNo, template.templateNo), eq(templateDrafts.savedByUserNo, user.userNo)));
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/template/delete',
    access: 'user',
    body: templateNoRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      const template = await requireReadableTemplate(db, user, body.templateNo);
      enforce(canDeleteTemplate(user, template), DELETE_REFUSALS);
      const documentName = templateDocumentName(template.templateNo);
      // Retired, never erased: its approved versions stay, and notes made from it keep pointing at them.
      await live.transaction(db, async (tx, commands) => {
        const [deleted] = await tx
          .update(templates)
          .set({ deletedAt: new Date(), updatedAt: new Date() })
          .where(and(eq(templates.templateNo, template.templateNo), isNull(templates.deletedAt)))
          .returning();
        if (!deleted) throw new AppError(ERR.templateDelete);
        await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
        const version = await lastApprovedVersion(tx, template);
        await appendAudit(tx, {
          actor: user,
          action: 'template.deleted',
          target: { type: 'template', id: template.templateNo },
          before: { title: template.title, state: template.state, version: version && formatTemplateVersion(version) },
          clientAddress,
        });
        commands.close(documentName);
      });
      return null;
    },
  });
}

/**
 * Checks the draft in (`/save`): what is stored is the server's copy of the live document, read inside the
 * transaction that locks the template, so every live update is either in it or refused after it. The
 * draft turns read-only for everyone until it is approved or sent back.
 */
async function checkIn(services: Services, user: AuthUser, template: TemplateRecord, clientList: Block[], clientAddress: string) {
  const { db, live } = services;
  const documentName = templateDocumentName(template.templateNo);
  const baseline = await approvedBaseline(services, template);
  await live.persistence.flushDocument(documentName);
  return live.transaction(db, async (tx, commands) => {
    const locked = await lockTemplate(tx, template.templateNo, 'update');
    if (!locked || !templateOpenForWriting(locked)) throw new AppError(ERR.templateNotDraft);
    if (locked.revision !== template.revision) throw new AppError(ERR.conflict, { data: { version: locked.revision } });
    const state = (await loadDocumentState(tx, documentName)) ?? EMPTY_STATE;
    const content = snapshotOfState(state);
    assertContentRules(content, baseline);
    const blocks = content.savedBlocks('TEMPLATE');
    checkClientList(services, template.templateNo, clientList, withStatuses(blocks, baseline.blocks));
    const blocksHash = versionFingerprint(blocks);
    const revision = locked.revision + 1;
    await tx
      .insert(templateRevisions)
      .values({ templateNo: template.templateNo, revision, blocks, blocksHash, documentState: state, checkedByUserNo: user.userNo });
    await tx
      .update(templates)
      .set({ state: TEMPLATE_STATE.checking, revision, updatedAt: new Date() })
      .where(eq(templates.templateNo, template.templateNo));
    await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
    await appendAudit(tx, {
      actor: user,
      action: 'template.checked',
      target: { type: 'template', id: template.templateNo },
      before: { state: TEMPLATE_STATE.draft, revision: locked.revision },
      after: { state: TEMPLATE_STATE.checking, revision, blocksHash, blocks: blocks.length },
      clientAddress,
    });
    commands.endWriting(documentName, null, 'checked');
    return { revision, blocksHash };
  });
}

type ApproveBody = ReturnType<typeof templateApproveRequest.parse>;

/**
 * Approves the waiting revision under a version (`/approve`): by a manager who is neither the author nor
 * the one who checked it in, with their password, under a version greater than the last approved one.
 * The previous approved version is marked superseded. Two racing approvers make one winner.
 */
async function approve(services: Services, user: AuthUser, body: ApproveBody, clientAddress: string) {
  const { db } = services;
  const template = await requireReadableTemplate(db, user, body.templateNo);
  const waiting = await waitingRevision(db, template);
  enforce(canApproveTemplate(user, template, waiting?.checkedByUserNo ?? null), APPROVE_REFUSALS);
  if (body.revision !== template.revision) throw new AppError(ERR.conflict, { data: { revision: template.revision } });
  const version = parseTemplateVersion(body.version);
  if (!version) throw new AppError(ERR.templateVersionInvalid);
  const last = await lastApprovedVersion(db, template);
  if (last && compareTemplateVersions(version, last) <= 0)
    throw new AppError(ERR.templateVersionNotGreater, { params: { last: formatTemplateVersion(last) } });
  await confirmPassword(services, user, body.password, `approve:${user.userId}`, async (tx) => {
    await appendAudit(tx, {
      actor: user,
      action: 'template.approvalFailed',
      target: { type: 'template', id: template.templateNo },
      reason: AUDIT_SYSTEM_REASONS.wrongPassword,
      clientAddress,
    });
  });
  return db.transaction(async (tx) => {
    const locked = await lockTemplate(tx, template.templateNo, 'update');
    if (locked?.state !== TEMPLATE_STATE.checking || locked.revision !== body.revision || locked.deletedAt)
      throw new AppError(ERR.templateNotChecking);
    const at = new Date();
    const [approved] = await tx
      .update(templateRevisions)
      .set({ versionMajor: version.major, versionMinor: version.minor, approvedByUserNo: user.userNo, approvedAt: at })
      .where(
        and(
          eq(templateRevisions.templateNo, template.templateNo),
          eq(templateRevisions.revision, body.revision),
          isNull(templateRevisions.approvedAt),
        ),
      )
      .returning();
    if (!approved) throw new AppError(ERR.templateNotChecking);
    if (locked.approvedRevision !== null) {
      await tx
        .update(templateRevisions)
        .set({ supersededAt: at })
        .where(and(eq(templateRevisions.templateNo, template.templateNo), eq(templateRevisions.revision, locked.approvedRevision)));
    }
    await tx
      .update(templates)
      .set({ state: TEMPLATE_STATE.approved, approvedRevision: body.revision, updatedAt: at })
      .where(eq(templates.templateNo, template.templateNo));
    await tx.delete(templateDrafts).where(eq(templateDrafts.templateNo, template.templateNo));
    const label = formatTemplateVersion(version);
    await appendAudit(tx, {
      actor: user,
      action: 'template.approved',
      target: { type: 'template', id: template.templateNo },
      before: { state: TEMPLATE_STATE.checking, version: last && formatTemplateVersion(last) },
      after: {
        state: TEMPLATE_STATE.approved,
        version: label,
        revision: body.revision,
        blocksHash: approved.blocksHash,
        superseded: last && formatTemplateVersion(last),
        at: at.toISOString(),
      },
      clientAddress,
    });
    return { version: label, blocksHash: approved.blocksHash };
  });
}
