import * as Y from 'yjs';
import { mentionedUserIds, noteDocumentName, splitMentions } from '@eln/shared';
import { loadDocumentState } from '../collab/persistence/documentStore.js';
import type { Queryable } from '../db/client.js';
import { AnchorReader } from './anchors.js';
import { commentRowsOf, peopleByUserId } from './queries.js';
import { anchorOf } from './presenters.js';

/** One comment as an export prints or lists it. */
export interface ExportComment {
  commentId: number;
  author: { userNo: number; userId: string; name: string };
  /** The text with each mention token written as `@Name`. */
  text: string;
  createdAt: Date;
  editedAt: Date | null;
}

/** A thread as an export carries it: its first comment (null when deleted), where it is, its state and replies. */
export interface ExportThread {
  first: ExportComment | null;
  commentId: number;
  blockUid: string;
  quote: string;
  onDeletedText: boolean;
  resolved: { by: string; at: Date } | null;
  replies: ExportComment[];
}

/**
 * A note's comment threads for its exports (the PDF's appendix, the .eln archive's Comment entities):
 * deleted comments left out (a deleted first comment with replies kept as a thread without it), mention
 * tokens as names, and whether each anchor's text is still in the note as stored. Comments are not part of
 * the signed content: exports say so where they show them.
 */
export async function exportThreads(q: Queryable, noteNo: number): Promise<ExportThread[]> {
  const rows = await commentRowsOf(q, { kind: 'note', no: noteNo });
  if (!rows.length) return [];
  const state = await loadDocumentState(q, noteDocumentName(noteNo));
  const reader = new AnchorReader(state ?? new Y.Doc());
  const ids = new Set<string>();
  for (const { comment } of rows) for (const id of mentionedUserIds(comment.body)) ids.add(id);
  const names = new Map((await peopleByUserId(q, [...ids])).map((p) => [p.userId, p.name]));
  const readable = (body: string) =>
    splitMentions(body)
      .map((part) => ('text' in part ? part.text : `@${names.get(part.userId) ?? part.userId}`))
      .join('');
  const entry = (row: (typeof rows)[number]): ExportComment => ({
    commentId: row.comment.commentId,
    author: { userNo: row.comment.authorUserNo, userId: row.authorId, name: row.authorName },
    text: readable(row.comment.body),
    createdAt: row.comment.createdAt,
    editedAt: row.comment.editedAt,
  });
  const live = rows.filter((row) => row.comment.deletedAt === null);
  return rows.flatMap((row): ExportThread[] => {
    const { comment } = row;
    if (comment.replyTo !== null) return [];
    const replies = live.filter((reply) => reply.comment.replyTo === comment.commentId).map(entry);
    if (comment.deletedAt !== null && !replies.length) return [];
    const anchor = anchorOf(comment);
    return [
      {
        first: comment.deletedAt === null ? entry(row) : null,
        commentId: comment.commentId,
        blockUid: anchor.blockUid,
        quote: anchor.quote,
        onDeletedText: reader.onDeletedText(anchor),
        resolved: comment.resolvedAt ? { by: row.resolverName ?? '', at: comment.resolvedAt } : null,
        replies,
      },
    ];
  });
}
