import { and, eq, inArray } from 'drizzle-orm';
import * as Y from 'yjs';
import { CONTENT_FIELD, MENTION_LIMITS, MENTION_NODE, noteDocumentName, nodeMentions, type PmNode, type SavedBlock } from '@eln/shared';
import { contentSnapshot } from '../collab/documents/contentSnapshots.js';
import type { Tx } from '../db/client.js';
import { fixedStatement } from '../db/fixedStatement.js';
import { documentClients, labNotes, noteMentions, projectParticipants, projects, users } from '../db/schema.js';
import { personMayReadNote } from '../notes/policy.js';
import { notify } from '../notifications/notify.js';
import type { StoredNoteWatcher } from '../search/indexer.js';
import type { StoredDocuments } from '../search/records.js';

/*
 * Mentions in notes: who is newly mentioned, found where a note's live document is durably stored. The
 * search indexer reads every stored note shortly after each stored update (its queue is filled by the
 * store's trigger, in every process, surviving restarts), and hands the notes it read to this watcher in
 * its transaction, under the notes' locks. The watcher compares each block's mentions with those recorded
 * in note_mentions: a (note, block, person) seen for the first time is recorded with its outcome, and its
 * person notified (`mentioned`, linking to the block) when they may read the note, are not who wrote the
 * mention, and the note's new notifications of this store are within MENTION_LIMITS.perText. A mention
 * deleted and typed again is the same row: its person hears of it once.
 */

/** How long a mention whose writer is not yet known (their client's first update still being recorded) is looked at again. */
const AUTHOR_WAIT_MS = 10_000;

type Outcome = (typeof noteMentions.$inferInsert)['outcome'];

interface Found {
  noteNo: number;
  blockUid: string;
  userId: string;
}

/** Which of the mentions given (note, block, person) note_mentions holds already. */
const recordedAmong = fixedStatement<{ note_no: number; block_uid: string; user_id: string }>(
  'mentions_recorded_among',
  `select m.note_no, m.block_uid, m.user_id from note_mentions m
    join unnest($1::int[], $2::text[], $3::text[]) as c(note_no, block_uid, user_id)
      on m.note_no = c.note_no and m.block_uid = c.block_uid and m.user_id = c.user_id`,
);

const keyOf = (found: Pick<Found, 'blockUid' | 'userId'>) => `${found.blockUid}\u0000${found.userId}`;

/** The people each block mentions, by the block's content (the very same string while the block is unchanged). */
type BlockMentionMemo = Map<string, { content: string; userIds: string[] }>;

/** A stored note's mentions, block by block, in document order (a repeated blockUid counts once). */
function mentionsOf(
  blocks: readonly SavedBlock[],
  memo: BlockMentionMemo,
): { found: Array<Omit<Found, 'noteNo'>>; memo: BlockMentionMemo } {
  const next: BlockMentionMemo = new Map();
  const found: Array<Omit<Found, 'noteNo'>> = [];
  for (const block of blocks) {
    if (next.has(block.blockUid)) continue;
    const known = memo.get(block.blockUid);
    // A mention's JSON always names its type: content without it mentions no one, unparsed.
    const userIds =
      known?.content === block.content
        ? known.userIds
        : block.content.includes(`"${MENTION_NODE}"`)
          ? nodeMentions(JSON.parse(block.content) as PmNode)
          : [];
    next.set(block.blockUid, { content: block.content, userIds });
    for (const userId of userIds) found.push({ blockUid: block.blockUid, userId });
  }
  return { found, memo: next };
}

/** The Yjs client that wrote each mention of the document (its first, in document order), by block and person. */
function mentionClients(doc: Y.Doc): Map<string, number> {
  const clients = new Map<string, number>();
  const walk = (element: Y.XmlElement, blockUid: string) => {
    for (const child of element.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      if (child.nodeName === MENTION_NODE) {
        const userId = child.getAttribute('userId');
        const key = typeof userId === 'string' ? keyOf({ blockUid, userId }) : null;
        if (key && child._item && !clients.has(key)) clients.set(key, child._item.id.client);
      } else walk(child, blockUid);
    }
  };
  for (const block of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    const blockUid = block instanceof Y.XmlElement ? block.getAttribute('blockUid') : undefined;
    if (typeof blockUid === 'string') walk(block as Y.XmlElement, blockUid);
  }
  return clients;
}

/**
 * Finds and notifies new mentions in stored notes (see the note at the top). One per process, handed to
 * the search indexer; it keeps, per stored document, its blocks' mentions as last derived and the set it
 * last settled, so that a note edited without touching a mention costs no query.
 */
export class NoteMentionWatcher implements StoredNoteWatcher {
  private readonly memos = new WeakMap<Y.Doc, BlockMentionMemo>();
  private readonly settled = new WeakMap<Y.Doc, string>();
  /** When a mention was first seen without a known writer, by document and mention. */
  private readonly awaitingAuthor = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async notesStored(tx: Tx, noteNos: readonly number[], stored: StoredDocuments): Promise<string[]> {
    if (!noteNos.length) return [];
    const docs = await stored(noteNos.map(noteDocumentName));
    const current: Found[] = [];
    const unsettled: Array<{ noteNo: number; doc: Y.Doc; key: string }> = [];
    for (const noteNo of noteNos) {
      const doc = docs.get(noteDocumentName(noteNo));
      if (!doc) continue;
      const { found, memo } = mentionsOf(
        contentSnapshot(doc).savedBlocks('LABNOTE'),
        this.memos.get(doc) ?? (new Map() as BlockMentionMemo),
      );
      this.memos.set(doc, memo);
      const key = found.map(keyOf).join('\n');
      if (this.settled.get(doc) === key) continue;
      unsettled.push({ noteNo, doc, key });
      current.push(...found.map((mention) => ({ ...mention, noteNo })));
    }
    if (!unsettled.length) return [];
    const fresh = await this.unrecorded(tx, current);
    const again = fresh.length
      ? await this.record(tx, fresh, new Map(unsettled.map(({ noteNo, doc }) => [noteNo, doc])))
      : new Set<number>();
    for (const { noteNo, doc, key } of unsettled) if (!again.has(noteNo)) this.settled.set(doc, key);
    return [...again].map(noteDocumentName);
  }

  /** The mentions not yet in note_mentions. */
  private async unrecorded(tx: Tx, current: Found[]): Promise<Found[]> {
    if (!current.length) return [];
    const rows = await recordedAmong(tx, [current.map((f) => f.noteNo), current.map((f) => f.blockUid), current.map((f) => f.userId)]);
    const known = new Set(rows.map((row) => `${row.note_no}\u0000${keyOf({ blockUid: row.block_uid, userId: row.user_id })}`));
    return current.filter((found) => !known.has(`${found.noteNo}\u0000${keyOf(found)}`));
  }

  /**
   * Records each new mention with its outcome and notifies those it should; answers the notes to look at
   * again, whose mentions' writers are not yet known (their rows are left for then).
   */
  private async record(tx: Tx, fresh: Found[], docs: Map<number, Y.Doc>): Promise<Set<number>> {
    const noteNos = [...new Set(fresh.map((found) => found.noteNo))];
    const notes = new Map(
      (
        await tx
          .select({ note: labNotes, project: projects })
          .from(labNotes)
          .innerJoin(projects, eq(projects.projectNo, labNotes.projectNo))
          .where(inArray(labNotes.noteNo, noteNos))
      ).map((row) => [row.note.noteNo, row]),
    );
    const people = new Map(
      (
        await tx
          .select({ userNo: users.userNo, userId: users.userId, level: users.level, active: users.active })
          .from(users)
          .where(inArray(users.userId, [...new Set(fresh.map((found) => found.userId))]))
      ).map((person) => [person.userId, person]),
    );
    const listed = new Set(
      (
        await tx
          .select({ projectNo: projectParticipants.projectNo, userNo: projectParticipants.userNo })
          .from(projectParticipants)
          .where(
            and(
              inArray(projectParticipants.projectNo, [...new Set([...notes.values()].map(({ project }) => project.projectNo))]),
              inArray(projectParticipants.userNo, [...people.values()].map((person) => person.userNo).concat(-1)),
            ),
          )
      ).map((row) => `${row.projectNo}.${row.userNo}`),
    );
    const writers = await this.writersOf(tx, fresh, docs);

    const again = new Set<number>();
    const rows: Array<typeof noteMentions.$inferInsert> = [];
    const notifiedPerNote = new Map<number, number>();
    for (const found of fresh) {
      const ctx = notes.get(found.noteNo);
      if (!ctx) continue;
      const person = people.get(found.userId);
      const actorUserNo = writers.get(`${found.noteNo}\u0000${keyOf(found)}`) ?? null;
      const waitKey = `${found.noteNo}\u0000${keyOf(found)}`;
      let outcome: Outcome;
      if (!person) outcome = 'unknownPerson';
      else if (actorUserNo === null && this.stillWaiting(waitKey)) {
        again.add(found.noteNo);
        continue;
      } else if (actorUserNo === null) outcome = 'unattributed';
      else if (actorUserNo === person.userNo) outcome = 'self';
      else {
        const participant = ctx.project.leaderUserNo === person.userNo || listed.has(`${ctx.project.projectNo}.${person.userNo}`);
        const count = notifiedPerNote.get(found.noteNo) ?? 0;
        if (!personMayReadNote(person, { note: ctx.note, project: ctx.project, participant })) outcome = 'notReader';
        else if (count >= MENTION_LIMITS.perText) outcome = 'overLimit';
        else {
          outcome = 'notified';
          notifiedPerNote.set(found.noteNo, count + 1);
        }
      }
      this.awaitingAuthor.delete(waitKey);
      rows.push({ noteNo: found.noteNo, blockUid: found.blockUid, userId: found.userId, outcome, actorUserNo });
    }
    if (!rows.length) return again;
    // Only rows this transaction wrote notify: under the note's lock no other pass writes them, and a
    // conflict (a row written meanwhile) is simply not told twice.
    const written = await tx.insert(noteMentions).values(rows).onConflictDoNothing().returning({
      noteNo: noteMentions.noteNo,
      blockUid: noteMentions.blockUid,
      userId: noteMentions.userId,
      outcome: noteMentions.outcome,
    });
    const groups = new Map<string, { noteNo: number; blockUid: string; actorUserNo: number; recipients: number[] }>();
    for (const row of written) {
      if (row.outcome !== 'notified') continue;
      const actorUserNo = writers.get(`${row.noteNo}\u0000${keyOf(row)}`)!;
      const groupKey = `${row.noteNo}\u0000${row.blockUid}\u0000${actorUserNo}`;
      const group = groups.get(groupKey) ?? { noteNo: row.noteNo, blockUid: row.blockUid, actorUserNo, recipients: [] };
      group.recipients.push(people.get(row.userId)!.userNo);
      groups.set(groupKey, group);
    }
    for (const group of groups.values()) {
      await notify(tx, {
        event: 'mentioned',
        recipients: group.recipients,
        actorUserNo: group.actorUserNo,
        noteNo: group.noteNo,
        projectNo: notes.get(group.noteNo)!.project.projectNo,
        payload: { blockUid: group.blockUid },
      });
    }
    return again;
  }

  /** Who wrote each new mention: the user of the Yjs client that inserted it (recorded by collab/authors), by note, block and person. */
  private async writersOf(tx: Tx, fresh: Found[], docs: Map<number, Y.Doc>): Promise<Map<string, number>> {
    const clientOf = new Map<string, number>();
    for (const noteNo of new Set(fresh.map((found) => found.noteNo))) {
      const doc = docs.get(noteNo);
      if (!doc) continue;
      for (const [key, client] of mentionClients(doc)) clientOf.set(`${noteNo}\u0000${key}`, client);
    }
    const wanted = fresh.flatMap((found) => {
      const client = clientOf.get(`${found.noteNo}\u0000${keyOf(found)}`);
      return client === undefined ? [] : [{ documentName: noteDocumentName(found.noteNo), client }];
    });
    if (!wanted.length) return new Map();
    const recorded = await tx
      .select({ documentName: documentClients.documentName, clientId: documentClients.clientId, userNo: documentClients.userNo })
      .from(documentClients)
      .where(
        and(
          inArray(documentClients.documentName, [...new Set(wanted.map((w) => w.documentName))]),
          inArray(documentClients.clientId, [...new Set(wanted.map((w) => w.client))]),
        ),
      );
    const userOf = new Map(recorded.map((row) => [`${row.documentName}\u0000${row.clientId}`, row.userNo]));
    const writers = new Map<string, number>();
    for (const [key, client] of clientOf) {
      const noteNo = Number(key.slice(0, key.indexOf('\u0000')));
      const userNo = userOf.get(`${noteDocumentName(noteNo)}\u0000${client}`);
      if (userNo !== undefined) writers.set(key, userNo);
    }
    return writers;
  }

  /** Whether a mention without a known writer is still within its wait (the first time: it starts now). */
  private stillWaiting(key: string): boolean {
    // Waits of mentions deleted (or notes gone) before their writer was known are forgotten in time.
    for (const [other, started] of this.awaitingAuthor) if (this.now() - started > 6 * AUTHOR_WAIT_MS) this.awaitingAuthor.delete(other);
    const since = this.awaitingAuthor.get(key);
    if (since === undefined) {
      this.awaitingAuthor.set(key, this.now());
      return true;
    }
    return this.now() - since < AUTHOR_WAIT_MS;
  }
}
