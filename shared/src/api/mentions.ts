import { z } from 'zod';
import { ERR } from '../errors.js';
import { LIMITS, MENTION_LIMITS } from '../limits.js';
import { recordNo, text } from '../validation.js';
import { defineCall } from './call.js';

/** One person as the `@` suggestions and a note's mention chips show them. */
export const mentionPerson = z.strictObject({
  userId: z.string(),
  /** Their name now. */
  name: z.string(),
  department: z.string().nullable(),
  /** Leads the note's project. */
  leader: z.boolean(),
  /** May read this note: the notes policy's verdict for them (a person who may not is never notified). */
  canRead: z.boolean(),
});
export type MentionPerson = z.infer<typeof mentionPerson>;

/** `q`: what was typed after `@`, matched anywhere in a person's name or ID (empty: everyone, by name). */
export const mentionCandidatesRequest = z.strictObject({
  labNoteNo: recordNo,
  q: text().trim().max(MENTION_LIMITS.query).optional(),
});

export const mentionCandidatesAnswer = z.strictObject({
  /** The project's leader, its listed participants and the people of its departments, by name; at most MENTION_LIMITS.candidates. */
  list: z.array(mentionPerson),
  projectNo: z.number(),
  /** Who leads the project (named when someone else may not add a participant). */
  leader: z.strictObject({ userId: z.string(), name: z.string() }),
  /** `addParticipants`: the caller may add a person to the project (the projects policy: its leader, or an administrator). */
  abilities: z.strictObject({ addParticipants: z.boolean() }),
});
export type MentionCandidatesAnswer = z.infer<typeof mentionCandidatesAnswer>;

/** The people a note's mentions name, to show each by their name now and whether they may read it. */
export const mentionPeopleRequest = z.strictObject({
  labNoteNo: recordNo,
  userIds: z.array(text().max(LIMITS.email)).max(MENTION_LIMITS.people),
});

/** Each person asked for who has an account (active or not); an ID of no account is left out. */
export const mentionPeopleAnswer = z.strictObject({ list: z.array(mentionPerson) });

const NOTE_READ_ERRORS = [ERR.noteMissing, ERR.noteDeleted] as const;

/** Mentions of people in a note (server/src/mentions): whoever may read the note. */
export const mentionCalls = {
  candidates: defineCall({
    path: '/v1/project/note/mention/candidates',
    auth: 'user',
    kind: 'query',
    summary:
      "The people `@` offers in a note, filtered by what was typed: the project's leader, participants and departments' people, each with whether they may read the note.",
    request: mentionCandidatesRequest,
    answer: mentionCandidatesAnswer,
    errors: [...NOTE_READ_ERRORS],
    failure: ERR.mentionLookup,
  }),
  people: defineCall({
    path: '/v1/project/note/mention/people',
    auth: 'user',
    kind: 'query',
    summary: "The people a note's mentions name, each with their name now and whether they may read the note.",
    request: mentionPeopleRequest,
    answer: mentionPeopleAnswer,
    errors: [...NOTE_READ_ERRORS],
    failure: ERR.mentionLookup,
  }),
} as const;
