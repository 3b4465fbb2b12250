import type { NoteSummary } from './notes.js';
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { EMAIL_PATTERN } from '../patterns.js';
import { optionalText, recordNo, requiredText, text } from '../validation.js';
import { pagingRequest } from './paging.js';

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

export interface ProjectParticipant {
  userNo: number;
  userId: string;
  name: string;
  departmentCode: string | null;
  departmentName: string | null;
}

/** What the caller may do with a project now, as the server's project policy decides it (`server/src/projects/policy.ts`). */
export interface ProjectAbilities {
  /** Change the title, description and participants. */
  modify: boolean;
  /** Close the project (the server also needs a reviewer's signature on a note, 2022). */
  finish: boolean;
  createNote: boolean;
  /** Release every note of the project from whoever holds it open for writing. */
  clearHolds: boolean;
  /** Export the project's notes (PDF, .eln). */
  export: boolean;
}

export interface ProjectRow {
  no: number;
  title: string;
  description: string;
  status: ProjectStatus;
  /** The leader's ID. */
  userId: string;
  leaderName: string;
  /** The leader's department. */
  department: string | null;
  participantCount: number;
  createdAt: string;
  updatedAt: string;
  abilities: ProjectAbilities;
}

export interface ProjectDetail {
  /**
   * Why the leader cannot close the project yet, though allowed to close it (`abilities.finish`): no
   * reviewer has signed a note of it (2022). Null when it can be closed now, or when the caller may not.
   */
  finishBlockedBy: 'noReviewerSignature' | null;
  no: number;
  title: string;
  description: string;
  status: ProjectStatus;
  userId: string;
  leaderName: string;
  signatureList: SignatureList;
  participants: ProjectParticipant[];
  /** Everyone who takes part, the possible signers: the leader first (a member whether listed or not), then the participants. */
  members: ProjectParticipant[];
  departments: Array<{ code: string; name: string }>;
  /** Whether the caller may modify the project: the same verdict as `abilities.modify`. */
  canModify: boolean;
  createdAt: string;
  updatedAt: string;
  abilities: ProjectAbilities;
}

export interface ProjectEditorAnswer {
  info: ProjectDetail;
  list: NoteSummary[];
}
