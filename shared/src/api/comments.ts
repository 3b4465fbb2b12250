import { z } from 'zod';
import { ERR } from '../errors.js';
import { COMMENT_LIMITS } from '../limits.js';
import { recordNo, text } from '../validation.js';
import { defineCall, noAnswer } from './call.js';

/*
 * Comment threads on a lab note or a template draft (server/src/comments). A thread is anchored to a block
 * and, within it, to a text range kept as two Yjs relative positions, so that it follows the text as it is
 * edited; its replies (one level) name the thread's first comment. Comments live beside the content: they
 * change no version, no block and no fingerprint, and they are allowed on signed and finished notes, never
 * on a closed project's.
 */

/** What the comments are on: a lab note (`labNoteNo`) or a template draft (`templateNo`), exactly one. */
const placeFields = { labNoteNo: recordNo.optional(), templateNo: recordNo.optional() };
const onePlace = (body: { labNoteNo?: number; templateNo?: number }) => (body.labNoteNo === undefined) !== (body.templateNo === undefined);

/** A comment's number (a bigserial, well inside JavaScript's safe integers). */
const commentId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** One encoded Yjs relative position (Y.encodeRelativePosition), in base64. */
const position = z
  .string()
  .max(COMMENT_LIMITS.position)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'invalidFormat' });

/**
 * Where a thread is: the block (its `blockUid`) and, within the content (the Y.XmlFragment `default`), the
 * range from `start` to `end` as Yjs relative positions; both null for a comment on a whole block (a table,
 * an image). `quote` is the text anchored when the thread was opened (cut to COMMENT_LIMITS.quote).
 */
export const commentAnchor = z
  .strictObject({
    blockUid: text().min(1).max(COMMENT_LIMITS.blockUid),
    start: position.nullable(),
    end: position.nullable(),
    quote: text().max(COMMENT_LIMITS.quote),
  })
  .refine((anchor) => (anchor.start === null) === (anchor.end === null), { error: 'invalidValue', path: ['end'] });
export type CommentAnchor = z.infer<typeof commentAnchor>;

/** A comment's text: plain text in which `@[userId]` mentions a person (shared/src/mentions.ts). */
const commentBody = text()
  .trim()
  .min(1, { error: 'required' })
  .max(COMMENT_LIMITS.body)
  // A lone carriage return or other control characters are not text a comment is written in.
  .refine((value) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(value), { error: 'invalidCharacters' });

export const commentPlaceRequest = z.strictObject(placeFields).refine(onePlace, { error: 'invalidValue', path: ['labNoteNo'] });

export const commentCreateRequest = z
  .strictObject({
    ...placeFields,
    /** Where the new thread is; left out for a reply (a reply is where its thread is). */
    anchor: commentAnchor.optional(),
    body: commentBody,
    /** The first comment of the thread this answers. */
    replyTo: commentId.optional(),
  })
  .refine(onePlace, { error: 'invalidValue', path: ['labNoteNo'] })
  .refine((body) => (body.anchor === undefined) !== (body.replyTo === undefined), { error: 'invalidValue', path: ['anchor'] });

export const commentUpdateRequest = z.strictObject({ commentId, body: commentBody });
export const commentIdRequest = z.strictObject({ commentId });

/** A person as a comment names them. */
const commentPerson = z.strictObject({ userId: z.string(), name: z.string() });
export type CommentPerson = z.infer<typeof commentPerson>;

/** What the caller may do with one comment, as the server's policy decides (server/src/comments/policy.ts). */
export const commentAbilities = z.strictObject({ edit: z.boolean(), delete: z.boolean() });

export const commentEntry = z.strictObject({
  commentId: z.number(),
  author: commentPerson,
  /** The text, with mention tokens (`@[userId]`); empty when deleted. */
  body: z.string(),
  createdAt: z.string(),
  /** When its author last changed the text (null: never). */
  editedAt: z.string().nullable(),
  /** A first comment deleted while its thread still has replies is kept as a mark, its text gone. */
  deleted: z.boolean(),
  abilities: commentAbilities,
});
export type CommentEntry = z.infer<typeof commentEntry>;

export const commentThread = commentEntry.extend({
  anchor: commentAnchor,
  /**
   * The anchored text is gone from the document as stored now (deleted, or its block removed): the thread
   * is listed as "on deleted text". Read against the live document when the list is answered.
   */
  onDeletedText: z.boolean(),
  resolved: z.strictObject({ by: commentPerson, at: z.string() }).nullable(),
  replies: z.array(commentEntry),
  /** What the caller may do with the thread: answer it, resolve it, reopen it. */
  threadAbilities: z.strictObject({ reply: z.boolean(), resolve: z.boolean(), reopen: z.boolean() }),
});
export type CommentThread = z.infer<typeof commentThread>;

export const commentListAnswer = z.strictObject({
  /** Threads in the order they were opened. */
  threads: z.array(commentThread),
  /** Everyone a comment here mentions, by user ID: the names mention tokens are shown as. */
  people: z.array(commentPerson),
  /** Whether the caller may open threads and reply here (not on a closed project's note). */
  abilities: z.strictObject({ comment: z.boolean() }),
});
export type CommentListAnswer = z.infer<typeof commentListAnswer>;

/** The people who may read the note (or template draft), whom a comment may mention, by name. */
export const mentionableAnswer = z.strictObject({ list: z.array(commentPerson) });
export type MentionableAnswer = z.infer<typeof mentionableAnswer>;

const READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted, ERR.notFound] as const;
const CHANGE_ERRORS = [...READ_ERRORS, ERR.commentMissing, ERR.commentProjectClosed, ERR.forbidden] as const;
const TEXT_ERRORS = [ERR.commentMentionUnreadable, ERR.commentMentionNoTemplate, ERR.commentTooManyMentions] as const;

/** The comment calls (server/src/comments). */
export const commentCalls = {
  list: defineCall({
    path: '/v1/project/note/comment/list',
    auth: 'user',
    kind: 'query',
    summary:
      "A note's (or template draft's) comment threads with their replies, whether each one's text is gone, and what the caller may do.",
    request: commentPlaceRequest,
    answer: commentListAnswer,
    errors: [...READ_ERRORS, ERR.commentLookup],
    failure: ERR.commentLookup,
  }),
  mentionable: defineCall({
    path: '/v1/project/note/comment/mentionable',
    auth: 'user',
    kind: 'query',
    summary: 'The people who may read the note (its project leader and participants, and administrators) or template draft, to mention.',
    request: commentPlaceRequest,
    answer: mentionableAnswer,
    errors: [...READ_ERRORS, ERR.commentLookup],
    failure: ERR.commentLookup,
  }),
  create: defineCall({
    path: '/v1/project/note/comment/create',
    auth: 'user',
    kind: 'command',
    summary: 'Opens a thread anchored to a block or a text range, or replies to a thread; notifies each person it mentions.',
    request: commentCreateRequest,
    answer: z.strictObject({ commentId: z.number() }),
    errors: [
      ...CHANGE_ERRORS,
      ...TEXT_ERRORS,
      ERR.commentThreadLimit,
      ERR.commentReplyLimit,
      ERR.commentReplyTarget,
      ERR.commentResolvedNoReply,
      ERR.commentAnchorInvalid,
      ERR.commentSave,
    ],
    failure: ERR.commentSave,
  }),
  update: defineCall({
    path: '/v1/project/note/comment/update',
    auth: 'user',
    kind: 'command',
    summary:
      "Changes a comment's text (its author only); the audit trail keeps the text before and after; newly mentioned people are notified.",
    request: commentUpdateRequest,
    answer: noAnswer,
    errors: [...CHANGE_ERRORS, ...TEXT_ERRORS, ERR.commentNotAuthor, ERR.commentSave],
    failure: ERR.commentSave,
  }),
  resolve: defineCall({
    path: '/v1/project/note/comment/resolve',
    auth: 'user',
    kind: 'command',
    summary: "Resolves a thread (the note's writer, a signer asked on it or the project leader).",
    request: commentIdRequest,
    answer: noAnswer,
    errors: [...CHANGE_ERRORS, ERR.commentNotResolver, ERR.commentAlreadyResolved, ERR.commentSave],
    failure: ERR.commentSave,
  }),
  reopen: defineCall({
    path: '/v1/project/note/comment/reopen',
    auth: 'user',
    kind: 'command',
    summary: 'Reopens a resolved thread (whoever may resolve it).',
    request: commentIdRequest,
    answer: noAnswer,
    errors: [...CHANGE_ERRORS, ERR.commentNotResolver, ERR.commentAlreadyOpen, ERR.commentSave],
    failure: ERR.commentSave,
  }),
  delete: defineCall({
    path: '/v1/project/note/comment/delete',
    auth: 'user',
    kind: 'command',
    summary: 'Deletes a comment (its author only); the audit trail keeps its text. A first comment with replies stays as a mark.',
    request: commentIdRequest,
    answer: noAnswer,
    errors: [...CHANGE_ERRORS, ERR.commentNotAuthor, ERR.commentSave],
    failure: ERR.commentSave,
  }),
} as const;
