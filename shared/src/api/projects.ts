import { noteSummary } from './notes.js';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { EMAIL_PATTERN } from '../patterns.js';
import { optionalText, recordNo, requiredText, text } from '../validation.js';
import { listAnswer, pagingRequest } from './paging.js';
import { defineCall, noAnswer } from './call.js';
import { ERR } from '../errors.js';
import { SIGNATURE_TYPES } from './signatures.js';

export const PROJECT_STATUS = { inProgress: 'ING', completed: 'C' } as const;
export type ProjectStatus = (typeof PROJECT_STATUS)[keyof typeof PROJECT_STATUS];

/** At most this many participants in one project: a guard against pathological requests, far above real use. */
export const MAX_PROJECT_PARTICIPANTS = 500;

/** Splits the spec's comma-separated list into distinct, trimmed entries. */
export function splitList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  ];
}

export function joinList(values: readonly string[]): string {
  return values.join(',');
}

/** `signatureList`: departments and users as comma-separated lists; at least one user. */
export const signatureList = z.strictObject({
  department: text().max(20_000).default(''),
  user: text()
    .max(200_000)
    .superRefine((value, ctx) => {
      const users = splitList(value);
      // Reported as list-size issues so that the reasons carry their numbers ("at least 1", "at most 500").
      if (users.length < 1) ctx.addIssue({ code: 'too_small', origin: 'array', minimum: 1, input: value });
      else if (users.length > MAX_PROJECT_PARTICIPANTS)
        ctx.addIssue({ code: 'too_big', origin: 'array', maximum: MAX_PROJECT_PARTICIPANTS, input: value });
      else if (!users.every((entry) => EMAIL_PATTERN.test(entry))) ctx.addIssue({ code: 'custom', message: 'invalidEmail', input: value });
    }),
});
export type SignatureList = z.infer<typeof signatureList>;

export const projectCreateRequest = z.strictObject({
  title: requiredText(LIMITS.projectTitle),
  description: optionalText(LIMITS.projectDescription),
  signatureList,
});

export const projectUpdateRequest = z.strictObject({
  projectNo: recordNo,
  title: requiredText(LIMITS.projectTitle).optional(),
  description: text().trim().max(LIMITS.projectDescription).optional(),
  signatureList,
});

export const projectNoRequest = z.strictObject({ projectNo: recordNo });

export const PROJECT_SEARCH_TYPES = ['title', 'leader'] as const;
/** The project list's status filter: in progress, ready to close (in progress with a reviewer signature), closed. */
export const PROJECT_LIST_STATUSES = ['ING', 'closable', 'C'] as const;
export type ProjectListStatus = (typeof PROJECT_LIST_STATUSES)[number];
export const projectListRequest = pagingRequest.safeExtend({
  type: z.enum(PROJECT_SEARCH_TYPES).optional(),
  status: z.enum(PROJECT_LIST_STATUSES).optional(),
});

export type ProjectCreate = z.input<typeof projectCreateRequest>;
export type ProjectUpdate = z.input<typeof projectUpdateRequest>;

export const projectParticipant = z.strictObject({
  userNo: z.number(),
  userId: z.string(),
  name: z.string(),
  departmentCode: z.string().nullable(),
  departmentName: z.string().nullable(),
});
export type ProjectParticipant = z.infer<typeof projectParticipant>;

/** What the caller may do with a project now, as the server's project policy decides it (`server/src/projects/policy.ts`). */
export const projectAbilities = z.strictObject({
  /** Change the title, description and participants. */
  modify: z.boolean(),
  /** Close the project (the server also needs a reviewer's signature on a note, 2022). */
  finish: z.boolean(),
  createNote: z.boolean(),
  /** Release every note of the project from whoever holds it open for writing. */
  clearHolds: z.boolean(),
  /** Export the project's notes (PDF, .eln). */
  export: z.boolean(),
  /** Register and manage the project's webhooks (its leader, administrators). */
  webhooks: z.boolean(),
});
export type ProjectAbilities = z.infer<typeof projectAbilities>;

export const projectRow = z.strictObject({
  no: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUS),
  /** The leader's ID. */
  userId: z.string(),
  leaderName: z.string(),
  /** The leader's department. */
  department: z.string().nullable(),
  participantCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: projectAbilities,
});
export type ProjectRow = z.infer<typeof projectRow>;

export const projectDetail = z.strictObject({
  /**
   * Why the leader cannot close the project yet, though allowed to close it (`abilities.finish`): no
   * reviewer has signed a note of it (2022). Null when it can be closed now, or when the caller may not.
   */
  finishBlockedBy: z.literal('noReviewerSignature').nullable(),
  no: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.enum(PROJECT_STATUS),
  userId: z.string(),
  leaderName: z.string(),
  signatureList: z.strictObject({ department: z.string(), user: z.string() }),
  participants: z.array(projectParticipant),
  /** Everyone who takes part, the possible signers: the leader first (a member whether listed or not), then the participants. */
  members: z.array(projectParticipant),
  departments: z.array(z.strictObject({ code: z.string(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
  abilities: projectAbilities,
});
export type ProjectDetail = z.infer<typeof projectDetail>;

/** A note as the close dialog names it. */
const closingNote = z.strictObject({ labNoteNo: z.number(), labNoteNumber: z.string(), title: z.string() });

/**
 * What closing the project would leave unfinished, for the leader to see before closing: signature
 * requests nobody has answered (closing cancels them, each recorded as "cancelled at close"), and notes
 * whose latest content is not a saved version (closing keeps them as they were last saved: `neverSaved`,
 * no version at all, printed as "No saved version"; `changedSinceSave`, edited after version `version`).
 */
export const projectClosePreview = z.strictObject({
  pendingSignatures: z.array(
    closingNote.safeExtend({
      signatureId: z.number(),
      userId: z.string(),
      name: z.string(),
      type: z.enum(SIGNATURE_TYPES),
      requestedAt: z.string(),
    }),
  ),
  unsavedNotes: z.array(
    closingNote.safeExtend({
      version: z.number(),
      writer: z.string(),
      reason: z.enum(['neverSaved', 'changedSinceSave']),
    }),
  ),
});
export type ProjectClosePreview = z.infer<typeof projectClosePreview>;

export const projectEditorAnswer = z.strictObject({ info: projectDetail, list: z.array(noteSummary) });
export type ProjectEditorAnswer = z.infer<typeof projectEditorAnswer>;

/** The project calls (server/src/projects). */
export const projectCalls = {
  list: defineCall({
    path: '/v1/project/list',
    auth: 'user',
    kind: 'query',
    summary: 'Projects the caller may see, newest first, filtered by title or leader, status and dates.',
    request: projectListRequest,
    answer: listAnswer(projectRow),
    errors: [ERR.projectLookup],
    failure: ERR.projectLookup,
  }),
  create: defineCall({
    path: '/v1/project/create',
    auth: 'user',
    kind: 'command',
    summary: 'Creates a project led by the caller (who needs the project flag), with its participants.',
    request: projectCreateRequest,
    answer: z.strictObject({ projectNo: z.number() }),
    errors: [ERR.forbidden, ERR.projectDuplicate, ERR.participantMissing, ERR.departmentMissing],
  }),
  update: defineCall({
    path: '/v1/project/update',
    auth: 'user',
    kind: 'command',
    summary: "Changes a project's title, description and participants (its leader or an administrator; in progress only).",
    request: projectUpdateRequest,
    answer: noAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.projectModify, ERR.projectDuplicate, ERR.participantMissing, ERR.departmentMissing],
  }),
  detail: defineCall({
    path: '/v1/project/check',
    auth: 'user',
    kind: 'query',
    summary: 'A project with its participants and what the caller may do with it.',
    request: projectNoRequest,
    answer: projectDetail,
    errors: [ERR.notFound, ERR.participantLookup],
    failure: ERR.participantLookup,
  }),
  finish: defineCall({
    path: '/v1/project/finish',
    auth: 'user',
    kind: 'command',
    summary:
      'Closes a project (its leader only, once a reviewer has signed a note): every note becomes finished, read-only everywhere, and signature requests still pending are cancelled.',
    request: projectNoRequest,
    answer: noAnswer,
    errors: [ERR.notFound, ERR.forbidden, ERR.projectModify, ERR.noReviewerSignature],
  }),
  closePreview: defineCall({
    path: '/v1/project/finish/check',
    auth: 'user',
    kind: 'query',
    summary:
      'What closing the project would leave unfinished: pending signature requests (cancelled at close) and notes not saved as they are.',
    request: projectNoRequest,
    answer: projectClosePreview,
    errors: [ERR.notFound, ERR.forbidden, ERR.projectModify],
  }),
  editor: defineCall({
    path: '/v1/project/editor',
    auth: 'user',
    kind: 'query',
    summary: 'A project and its notes, as its page shows them.',
    request: projectNoRequest,
    answer: projectEditorAnswer,
    errors: [ERR.notFound, ERR.noteLookup],
    failure: ERR.noteLookup,
  }),
} as const;
