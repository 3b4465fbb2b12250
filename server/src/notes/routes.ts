import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  differsFromSaved,
  emptyRequest,
  ERR,
  labNoteNoRequest,
  NOTE_BODY_LIMIT,
  noteCreateRequest,
  noteDocumentName,
  noteSaveRequest,
  noteTempRequest,
  projectNoRequest,
  type BlockListAnswer,
  type SaveAnswer,
  type TempAnswer,
  type ViewerAnswer,
  withStatuses,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { documentUpdates, labNoteCounters, labNotes, noteHolds, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import { canClearAllHolds, canCreateNote, CLEAR_HOLDS_REFUSALS, CREATE_NOTE_REFUSALS } from '../projects/policy.js';
import { requireReadableProject } from '../projects/queries.js';
import type { Services } from '../services.js';
import { checkClientListAfterAnswer } from './clientList.js';
import { tableText } from '../collab/documents/contentSnapshots.js';
import { assertContentRules, savedContent } from './contentCheck.js';
import { canDeleteNote, DELETE_REFUSALS } from './policy.js';
import { requireVisibleNote, requireWritableNote, savedVersion, summarize, type NoteContext } from './queries.js';
import { storeDraft, tempAnswer } from './drafts.js';
import { saveVersion } from './saveVersion.js';
import { recordNoteWriter } from './writers.js';
import { initialNoteState, templateStart } from '../templates/noteStart.js';

/**
 * The next lab note number of the year (in the company's time zone), taken inside the creating
 * transaction: a creation that fails or is refused gives it back, so the numbers have no gaps. Creations
 * wait for each other on the year's counter row until they commit.
 */
export async function nextLabNoteNumber(tx: Queryable, timeZone: string): Promise<string> {
  const year = Number(new Intl.DateTimeFormat('en', { timeZone, year: 'numeric' }).format(new Date()));
  const [row] = await tx
    .insert(labNoteCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({ target: labNoteCounters.year, set: { lastNumber: sql`${labNoteCounters.lastNumber} + 1` } })
    .returning();
  if (!row) throw new Error('lab note counter answered nothing');
  return `LN-${year}-${String(row.lastNumber).padStart(6, '0')}`;
}

/** Lab notes: creation, the live document's blocks, drafts, versions, the viewer, and note holds. */
export function registerNoteRoutes(app: FastifyInstance, services: Services): void {
  const { db, live } = services;

  /** The live document's blocks against the saved version, derived again only for blocks changed since the last call. */
  const currentBlocks = async (ctx: NoteContext) => {
    const content = await live.snapshot(noteDocumentName(ctx.note.noteNo));
    const saved = await savedContent(db, ctx.note.noteNo, ctx.note.version);
    const current = content.savedBlocks('LABNOTE');
    return { content, saved, blocks: withStatuses(current, saved.blocks), changed: differsFromSaved(current, saved.blocks, tableText) };
  };

  defineRoute(app, services, {
    path: '/v1/project/note/create',
    access: 'user',
    body: noteCreateRequest,
    async handler({ body, user, clientAddress }) {
      const { project, participant } = await requireReadableProject(db, user, body.projectNo);
      enforce(canCreateNote(project, participant), CREATE_NOTE_REFUSALS);
      const origin = body.templateNo === undefined ? null : await templateStart(db, user, body.templateNo);
      try {
        return await db.transaction(async (tx) => {
          const [note] = await tx
            .insert(labNotes)
            .values({
              projectNo: project.projectNo,
              title: body.title,
              labNoteNumber: await nextLabNoteNumber(tx, services.config.timeZone),
              writerUserNo: user.userNo,
              templateNo: origin?.templateNo ?? null,
              templateRevision: origin?.revision ?? null,
            })
            .returning();
          if (!note) throw new Error('note insert returned nothing');
          await recordNoteWriter(tx, note.noteNo, user.userNo);
          // The template's approved content becomes the note's first live state; later template versions do not touch it.
          if (origin)
            await tx
              .insert(documentUpdates)
              .values({ documentName: noteDocumentName(note.noteNo), update: await initialNoteState(tx, origin, note.noteNo) });
          await appendAudit(tx, {
            actor: user,
            action: 'note.created',
            target: { type: 'note', id: note.noteNo },
            after: {
              projectNo: project.projectNo,
              title: note.title,
              labNoteNumber: note.labNoteNumber,
              ...(origin
                ? {
                    template: {
                      templateNo: origin.templateNo,
                      version: origin.version,
                      revision: origin.revision,
                      blocksHash: origin.blocksHash,
                    },
                  }
                : {}),
            },
            clientAddress,
          });
          return { labNoteNo: note.noteNo, labNoteNumber: note.labNoteNumber };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(ERR.noteDuplicate);
        throw error;
      }
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/note/delete',
    access: 'user',
    body: labNoteNoRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      enforce(canDeleteNote(user, ctx), DELETE_REFUSALS);
      // Open editors are told the note is gone, on every process.
      await live.transaction(db, async (tx, commands) => {
        const [deleted] = await tx
          .update(labNotes)
          .set({ deletedAt: new Date(), updatedAt: new Date() })
          .where(and(eq(labNotes.noteNo, ctx.note.noteNo), isNull(labNotes.deletedAt), inArray(labNotes.status, ['W', 'R'])))
          .returning();
        if (!deleted) throw new AppError(ERR.noteDeleted);
        await tx.delete(noteHolds).where(eq(noteHolds.noteNo, ctx.note.noteNo));
        await appendAudit(tx, {
          actor: user,
          action: 'note.deleted',
          target: { type: 'note', id: ctx.note.noteNo },
          before: { title: ctx.note.title, version: ctx.note.version, status: ctx.note.status },
          clientAddress,
        });
        commands.close(noteDocumentName(ctx.note.noteNo));
      });
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/block/list',
    access: 'user',
    body: labNoteNoRequest,
    async handler({ body, user }): Promise<BlockListAnswer> {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      const { blocks, changed } = await currentBlocks(ctx);
      return { note: await summarize(db, ctx, user), blockList: blocks, changed };
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/viewer',
    access: 'user',
    body: labNoteNoRequest,
    async handler({ body, user }): Promise<ViewerAnswer> {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      try {
        const version = await savedVersion(db, ctx.note.noteNo, ctx.note.version);
        const [savedBy] = version ? await db.select({ name: users.name }).from(users).where(eq(users.userNo, version.savedByUserNo)) : [];
        return {
          note: await summarize(db, ctx, user),
          version: ctx.note.version,
          blockList: version?.blocks ?? [],
          savedAt: version?.savedAt.toISOString() ?? null,
          savedBy: savedBy?.name ?? null,
        };
      } catch (error) {
        services.log.error({ err: error, noteNo: ctx.note.noteNo }, 'viewer failed');
        throw new AppError(ERR.viewer);
      }
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/note/temp',
    access: 'user',
    body: noteTempRequest,
    bodyLimit: NOTE_BODY_LIMIT,
    async handler({ body, user }): Promise<TempAnswer> {
      const ctx = await requireWritableNote(db, user, body.labNoteNo);
      try {
        const { content, saved, blocks, changed } = await currentBlocks(ctx);
        assertContentRules(content, saved);
        const savedAt = new Date();
        await storeDraft(services.draftsDb, ctx.note.noteNo, blocks, user.userNo, savedAt);
        // Scheduled last: nothing awaits between here and the answer going out, so it runs after.
        checkClientListAfterAnswer(services, ctx.note.noteNo, body.blockList, blocks);
        return tempAnswer(blocks, changed, savedAt);
      } catch (error) {
        if (error instanceof AppError) throw error;
        services.log.error({ err: error, noteNo: ctx.note.noteNo }, 'temporary save failed');
        throw new AppError(ERR.noteTemp);
      }
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/note/save',
    access: 'user',
    failure: ERR.saveFailed,
    body: noteSaveRequest,
    bodyLimit: NOTE_BODY_LIMIT,
    handler: ({ body, user, clientAddress }): Promise<SaveAnswer> => saveVersion(services, user, body, clientAddress),
  });

  const clearHolds = async (user: AuthUser, noteNos: number[], onlyCaller: boolean, clientAddress: string) => {
    try {
      for (const noteNo of noteNos) {
        await live.endWriting(noteDocumentName(noteNo), onlyCaller ? user.userNo : null, 'cleared');
      }
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(noteHolds)
          .where(
            and(inArray(noteHolds.noteNo, noteNos.length ? noteNos : [-1]), onlyCaller ? eq(noteHolds.userNo, user.userNo) : undefined),
          )
          .returning();
        if (!onlyCaller && removed.length) {
          await appendAudit(tx, {
            actor: user,
            action: 'note.holdsCleared',
            target: { type: 'notes', id: noteNos.join(',') },
            before: { holders: removed.map((h) => h.userNo) },
            clientAddress,
          });
        }
      });
    } catch (error) {
      services.log.error({ err: error }, 'clearing note holds failed');
      throw new AppError(ERR.noteEditorsClear);
    }
  };

  defineRoute(app, services, {
    path: '/v1/project/clear',
    access: 'user',
    body: labNoteNoRequest,
    async handler({ body, user, clientAddress }) {
      const ctx = await requireVisibleNote(db, user, body.labNoteNo);
      await clearHolds(user, [ctx.note.noteNo], true, clientAddress);
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/editor/clear',
    access: 'user',
    body: emptyRequest,
    async handler({ user, clientAddress }) {
      const held = await db.selectDistinct({ noteNo: noteHolds.noteNo }).from(noteHolds).where(eq(noteHolds.userNo, user.userNo));
      await clearHolds(
        user,
        held.map((h) => h.noteNo),
        true,
        clientAddress,
      );
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/project/clear/all',
    access: 'user',
    body: projectNoRequest,
    async handler({ body, user, clientAddress }) {
      const { project } = await requireReadableProject(db, user, body.projectNo);
      enforce(canClearAllHolds(user, project), CLEAR_HOLDS_REFUSALS);
      const notes = await db.select({ noteNo: labNotes.noteNo }).from(labNotes).where(eq(labNotes.projectNo, project.projectNo));
      await clearHolds(
        user,
        notes.map((n) => n.noteNo),
        false,
        clientAddress,
      );
      return null;
    },
  });
}
