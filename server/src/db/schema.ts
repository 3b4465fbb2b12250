import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { ChangeSummary } from '@eln/shared';

const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow();

/** Server-wide settings that must be shared by every process (e.g. the token signing secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export const companies = pgTable('companies', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** The department tree of a company. `source` tells local departments from directory-synchronised ones. */
export const departments = pgTable(
  'departments',
  {
    code: text('code').primaryKey(),
    companyCode: text('company_code')
      .notNull()
      .references(() => companies.code),
    name: text('name').notNull(),
    parentCode: text('parent_code').references((): AnyPgColumn => departments.code),
    sortOrder: integer('sort_order').notNull().default(0),
    source: text('source', { enum: ['local', 'directory'] })
      .notNull()
      .default('local'),
    /** The directory entry this department mirrors (LDAP DN), for synchronisation. */
    directoryId: text('directory_id'),
    /** When a directory department stopped being listed by the directory: kept (people and projects refer to it), marked. */
    directoryMissingAt: timestamp('directory_missing_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('departments_parent_idx').on(t.parentCode), index('departments_company_idx').on(t.companyCode)],
);

export const users = pgTable(
  'users',
  {
    userNo: serial('user_no').primaryKey(),
    /** The sign-in ID: an email, stored lower-case. */
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    employeeNo: text('employee_no'),
    phone: text('phone'),
    departmentCode: text('department_code').references(() => departments.code),
    level: integer('level').notNull().default(1),
    authProject: boolean('auth_project').notNull().default(false),
    authSchema: boolean('auth_schema').notNull().default(false),
    authDropbox: boolean('auth_dropbox').notNull().default(false),
    authTemplate: boolean('auth_template').notNull().default(false),
    active: boolean('active').notNull().default(true),
    /** `directory`: kept by directory synchronisation (created or matched by email), deactivated when it leaves the directory. */
    source: text('source', { enum: ['local', 'directory'] })
      .notNull()
      .default('local'),
    /** When synchronisation deactivated the user for leaving the directory (it reactivates them on return; an administrator's deactivation it leaves alone). */
    directoryMissingAt: timestamp('directory_missing_at', { withTimezone: true, precision: 3 }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_user_id_unique').on(t.userId),
    index('users_name_phone_idx').on(t.name, t.phone),
    index('users_department_idx').on(t.departmentCode),
  ],
);

/**
 * Runs of directory synchronisation, manual or by the interval: who, when, how far it got (for the
 * screen's progress), what it changed, or why it failed. A run stays `running` only while a process works on it.
 */
export const directorySyncRuns = pgTable(
  'directory_sync_runs',
  {
    runNo: serial('run_no').primaryKey(),
    trigger: text('trigger', { enum: ['manual', 'interval'] }).notNull(),
    actorUserNo: integer('actor_user_no').references(() => users.userNo),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    /** `interrupted`: its process stopped beating before it ended (it changed nothing: the apply is one transaction). */
    status: text('status', { enum: ['running', 'succeeded', 'failed', 'interrupted'] })
      .notNull()
      .default('running'),
    phase: text('phase', { enum: ['connecting', 'departments', 'users', 'applying'] }),
    entriesRead: integer('entries_read').notNull().default(0),
    /** Last sign of life of the process working on it: a run left by a dead process is told from a live one by it. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    counts: jsonb('counts'),
    notes: jsonb('notes'),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
  },
  (t) => [index('directory_sync_runs_started_idx').on(t.startedAt)],
);

/** One signed-in session: the family of its refresh tokens. Revoking it refuses its access tokens at once. */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: uuid('session_id').primaryKey(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    createdAt: createdAt(),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true, precision: 3 }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    revokedReason: text('revoked_reason'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userNo)],
);

/**
 * Personal access tokens (server/src/tokens): stored only as the SHA-256 hash of their secret. The last
 * use and the calls of the current minute are counted on the row, so that every process sees the same.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    tokenId: uuid('token_id').primaryKey(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The secret's first characters, shown to tell tokens apart. */
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    revokedByUserNo: integer('revoked_by_user_no').references(() => users.userNo),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    lastUsedFrom: text('last_used_from'),
    /** Start of the minute whose calls `windowCalls` counts (the per-token throttle). */
    windowStartedAt: timestamp('window_started_at', { withTimezone: true, precision: 3 }),
    windowCalls: integer('window_calls').notNull().default(0),
  },
  (t) => [uniqueIndex('access_tokens_hash_unique').on(t.tokenHash), index('access_tokens_user_idx').on(t.userNo, t.createdAt)],
);

/** The user levels whose people may not use personal access tokens (an administrator's setting). */
export const accessTokenForbiddenLevels = pgTable('access_token_forbidden_levels', {
  level: integer('level').primaryKey(),
  createdAt: createdAt(),
});

/** Refresh tokens are stored only as SHA-256 hashes; each works once. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.sessionId),
    issuedAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** Failed attempts per account and per client address, to slow and then refuse guessing. */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true, precision: 3 }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
  /** Attempts refused while the current lock lasts: counted here rather than audited one by one. */
  refusedWhileLocked: integer('refused_while_locked').notNull().default(0),
});

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userNo: integer('user_no')
    .notNull()
    .references(() => users.userNo),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
});

/** At most one licence (the spec's "only one licence can be registered"): the singleton column enforces it. */
export const licences = pgTable('licences', {
  singleton: boolean('singleton').primaryKey().default(true),
  /** The signed key as registered; the columns below are read from it and re-checked against it. */
  licenceKey: text('licence_key').notNull(),
  keyId: text('key_id').notNull(),
  product: text('product').notNull(),
  maxVersion: text('max_version').notNull(),
  companyName: text('company_name').notNull(),
  serialNumber: text('serial_number').notNull(),
  seats: integer('seats').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true, precision: 3 }).notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true, precision: 3 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  /** The latest time the server has seen: a clock set back before it makes the licence invalid. */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  registeredAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * The audit trail: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and hash-chained, each
 * record's hash covering its content and the previous record's hash.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /**
     * The record's place in the trail counted from 1 with no gaps (seq can skip a number a rolled-back
     * append took). The list reads any page of the whole trail by it, and its total from the head's.
     */
    rowNo: bigint('row_no', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    actorUserNo: integer('actor_user_no'),
    actorUserId: text('actor_user_id'),
    action: text('action').notNull(),
    /**
     * The record's place among the records of its action, counted from 1 with no gaps (appends are
     * serialised, see appendAudit): the list filtered by an action reads any page by it, and its total
     * from the last one's, as the whole trail does by rowNo.
     */
    actionRowNo: bigint('action_row_no', { mode: 'number' }).notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    clientAddress: text('client_address'),
    /** The personal access token the change was made with (null: a session or the system); hashed only when set. */
    tokenId: uuid('token_id'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_log_row_no_unique').on(t.rowNo),
    uniqueIndex('audit_log_action_row_no_unique').on(t.action, t.actionRowNo),
    // Each filter's index ends in seq, so a filtered page is read in list order without sorting.
    index('audit_log_at_idx').on(t.at, t.seq),
    index('audit_log_actor_no_idx').on(t.actorUserNo, t.seq),
    index('audit_log_action_idx').on(t.action, t.seq),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.seq),
  ],
);

export const projects = pgTable(
  'projects',
  {
    projectNo: serial('project_no').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** ING in progress, C completed. */
    status: text('status', { enum: ['ING', 'C'] })
      .notNull()
      .default('ING'),
    leaderUserNo: integer('leader_user_no')
      .notNull()
      .references(() => users.userNo),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('projects_title_unique').on(t.title),
    index('projects_leader_idx').on(t.leaderUserNo, t.projectNo),
    index('projects_created_idx').on(t.createdAt),
    index('projects_status_idx').on(t.status),
  ],
);

/** The users of a project's signatureList: its participants. */
export const projectParticipants = pgTable(
  'project_participants',
  {
    projectNo: integer('project_no')
      .notNull()
      .references(() => projects.projectNo),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
  },
  (t) => [primaryKey({ columns: [t.projectNo, t.userNo] }), index('project_participants_user_idx').on(t.userNo, t.projectNo)],
);

/** The departments of a project's signatureList. */
export const projectDepartments = pgTable(
  'project_departments',
  {
    projectNo: integer('project_no')
      .notNull()
      .references(() => projects.projectNo),
    departmentCode: text('department_code')
      .notNull()
      .references(() => departments.code),
  },
  (t) => [primaryKey({ columns: [t.projectNo, t.departmentCode] })],
);

/** Binary columns as Uint8Array on both drivers (postgres.js answers Buffer, a Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * The last lab note number given in each year (LN-<year>-<number>). It is raised inside the creating
 * transaction, so a refused or failed creation gives its number back and the series has no gaps, which a
 * sequence (never rolled back) could not promise.
 */
export const labNoteCounters = pgTable('lab_note_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

export const labNotes = pgTable(
  'lab_notes',
  {
    noteNo: serial('note_no').primaryKey(),
    projectNo: integer('project_no')
      .notNull()
      .references(() => projects.projectNo),
    title: text('title').notNull(),
    /** e.g. LN-2026-000042: unique in the company. */
    labNoteNumber: text('lab_note_number').notNull(),
    writerUserNo: integer('writer_user_no')
      .notNull()
      .references(() => users.userNo),
    /**
     * A note imported from a .eln archive: the names of its authors there (people of that crate, not
     * accounts here; empty when the crate names none). Null for a note written here.
     */
    importedAuthors: jsonb('imported_authors').$type<string[]>(),
    /** W writing, R signatures requested, T signed (locked), F finished (project closed). */
    status: text('status', { enum: ['W', 'R', 'T', 'F'] })
      .notNull()
      .default('W'),
    /** The last saved version; 0 until the first save. */
    version: integer('version').notNull().default(0),
    /** The template (and its approved revision) the note was made from: its content was copied at creation. */
    templateNo: integer('template_no').references((): AnyPgColumn => templates.templateNo),
    templateRevision: integer('template_revision'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('lab_notes_number_unique').on(t.labNoteNumber),
    uniqueIndex('lab_notes_project_title_unique')
      .on(t.projectNo, t.title)
      .where(sql`${t.deletedAt} is null`),
    index('lab_notes_project_idx').on(t.projectNo, t.noteNo),
    // Search's note filters (search/queries.ts): a writer's notes, a status's, a period's, listed first.
    index('lab_notes_writer_idx').on(t.writerUserNo),
    index('lab_notes_status_created_idx').on(t.status, t.createdAt),
    index('lab_notes_created_idx').on(t.createdAt),
    // How many notes each template made (the template list), without reading every note.
    index('lab_notes_template_idx').on(t.templateNo),
  ],
);

/** Saved versions: immutable snapshots of a note's blocks (and its live document at that moment). */
export const noteVersions = pgTable(
  'note_versions',
  {
    noteNo: integer('note_no')
      .notNull()
      .references(() => labNotes.noteNo),
    version: integer('version').notNull(),
    blocks: jsonb('blocks').notNull(),
    /** SHA-256 of the canonical block list: what signatures bind to. */
    blocksHash: text('blocks_hash').notNull(),
    documentState: bytea('document_state').notNull(),
    savedByUserNo: integer('saved_by_user_no')
      .notNull()
      .references(() => users.userNo),
    savedAt: createdAt(),
    /**
     * How many blocks were added, changed, removed and moved against the version before it (ChangeSummary
     * of `@eln/shared`): written with the version, so a list of hundreds of versions reads no blocks. Null
     * for versions stored before it was kept, or imported, until notes/versionChanges.ts fills it in.
     */
    changes: jsonb('changes').$type<ChangeSummary>(),
    /** The earlier version this one restored (its content made live again), and the reason given; null for a save. */
    restoredFrom: integer('restored_from'),
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.noteNo, t.version] })],
);

/**
 * The temporary save of a note: who saved it and when, and a key naming the block list stored with it
 * (note_draft_blocks), renewed whenever that list is written.
 */
export const noteDrafts = pgTable('note_drafts', {
  noteNo: integer('note_no')
    .primaryKey()
    .references(() => labNotes.noteNo),
  blocksKey: text('blocks_key').notNull(),
  blockCount: integer('block_count').notNull(),
  savedByUserNo: integer('saved_by_user_no')
    .notNull()
    .references(() => users.userNo),
  savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * A temp save's blocks, one row per position, so a keystroke rewrites the one block it changed rather
 * than the whole note. Each block is compressed (deflate, raw; its fields, then its content: see
 * notes/drafts.ts): a 30 x 30 table's 150 kB become about 6 kB, which travel and commit in a fraction of
 * the time. A draft is a working copy, read back whole by readDraft; versions, the record, keep their
 * blocks as plain JSON.
 */
export const noteDraftBlocks = pgTable(
  'note_draft_blocks',
  {
    noteNo: integer('note_no')
      .notNull()
      .references(() => noteDrafts.noteNo, { onDelete: 'cascade' }),
    /** From 0; a draft of n blocks has positions 0 to n - 1. */
    position: integer('position').notNull(),
    blockDeflated: bytea('block_deflated').notNull(),
  },
  (t) => [primaryKey({ columns: [t.noteNo, t.position] })],
);

/**
 * Everyone who has written in a note: its creator, and each user whose live update a server accepted
 * for storing (recorded as it is accepted, so the list may name someone whose very first edit was then
 * lost, never the other way round). A reviewer must not be one of them.
 */
export const noteWriters = pgTable(
  'note_writers',
  {
    noteNo: integer('note_no')
      .notNull()
      .references(() => labNotes.noteNo),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    firstWroteAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.noteNo, t.userNo] }),
    // The notes one person writes or co-writes (the home's "My notes", inbox/queries.ts).
    index('note_writers_user_idx').on(t.userNo, t.noteNo),
  ],
);

/** Every Yjs update a writer sent, appended before it is confirmed durable; compacted into snapshots. */
export const documentUpdates = pgTable(
  'document_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentName: text('document_name').notNull(),
    update: bytea('update').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('document_updates_name_idx').on(t.documentName, t.id)],
);

export const documentSnapshots = pgTable('document_snapshots', {
  documentName: text('document_name').primaryKey(),
  state: bytea('state').notNull(),
  /** The highest update id folded into the snapshot (loads still read every remaining update). */
  lastUpdateId: bigint('last_update_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Commands to live connections on every server process (end writing, close, re-check users), kept so
 * that a process disconnected from Redis when one was sent still applies it: Redis only rings the
 * doorbell, each process reads what it has not seen. Rows are pruned after a few minutes.
 */
export const liveCommands = pgTable(
  'live_commands',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The process that sent it (it applied the command itself). */
    origin: text('origin').notNull(),
    command: jsonb('command').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('live_commands_created_at_idx').on(t.createdAt)],
);

/**
 * The server processes reading the command log, so that a change waits for each live one to apply its
 * commands (see collab/commands/commandLog.ts). A process writes its row with every read of the log:
 * `seen_at` is when that read began, `caught_up_to` the start of its latest read whose commands it has
 * applied, `lease_ms` how long after a read it accepts edits without reading again.
 */
export const liveProcesses = pgTable('live_processes', {
  origin: text('origin').primaryKey(),
  leaseMs: integer('lease_ms').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  caughtUpTo: timestamp('caught_up_to', { withTimezone: true }),
});

/** Who holds a note open for writing now ("being modified by"), across server processes. */
export const noteHolds = pgTable(
  'note_holds',
  {
    holdId: text('hold_id').primaryKey(),
    noteNo: integer('note_no')
      .notNull()
      .references(() => labNotes.noteNo),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    instanceId: text('instance_id').notNull(),
    since: createdAt(),
  },
  (t) => [index('note_holds_note_idx').on(t.noteNo), index('note_holds_user_idx').on(t.userNo)],
);

/**
 * Uploaded images and files, stored under FILES_DIR, each tied to the note or the template it belongs to.
 * A note made from a template gets rows of its own for the template's files (the stored bytes are shared).
 */
export const files = pgTable(
  'files',
  {
    fileId: uuid('file_id').primaryKey(),
    noteNo: integer('note_no').references(() => labNotes.noteNo),
    templateNo: integer('template_no').references((): AnyPgColumn => templates.templateNo),
    /** A schema thumbnail's owner: the type, and the child schema when it is a child's (removing the child clears it). */
    schemasTypeNo: integer('schemas_type_no').references((): AnyPgColumn => schemaTypes.schemasTypeNo),
    schemaNo: integer('schema_no').references((): AnyPgColumn => schemas.schemaNo, { onDelete: 'set null' }),
    /** The server-made small copy of this image (a schema thumbnail's), stored beside it. */
    smallFileId: uuid('small_file_id').references((): AnyPgColumn => files.fileId),
    kind: text('kind', { enum: ['image', 'file'] }).notNull(),
    originName: text('origin_name').notNull(),
    extension: text('extension').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storagePath: text('storage_path').notNull(),
    uploadedByUserNo: integer('uploaded_by_user_no')
      .notNull()
      .references(() => users.userNo),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_note_idx').on(t.noteNo),
    index('files_template_idx').on(t.templateNo),
    index('files_schema_type_idx').on(t.schemasTypeNo),
  ],
);

/**
 * File types administrators added to the spec's list: uploads of these extensions are files (never images),
 * stored with this MIME type once their content passes the check (`text`, or starting with one of the
 * `signatures`, hex). The spec's own types are not here: they are always allowed.
 */
export const extraFileTypes = pgTable('extra_file_types', {
  extension: text('extension').primaryKey(),
  mimeType: text('mime_type').notNull(),
  check: text('content_check', { enum: ['text', 'signature'] }).notNull(),
  signatures: jsonb('signatures').$type<string[]>().notNull().default([]),
  createdAt: createdAt(),
});

/**
 * Signatures on notes. A signed one binds the signer, its meaning, the time, the signed version and the
 * SHA-256 of that version's canonical block list. Removal keeps the row, with who removed it and why.
 */
export const noteSignatures = pgTable(
  'note_signatures',
  {
    signatureId: serial('signature_id').primaryKey(),
    noteNo: integer('note_no')
      .notNull()
      .references(() => labNotes.noteNo),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    type: text('type', { enum: ['reviewer', 'participant'] }).notNull(),
    /** R pending, T signed, F declined, C cancelled at close (SIGNATURE_STATUS). */
    status: text('status', { enum: ['R', 'T', 'F', 'C'] })
      .notNull()
      .default('R'),
    requestedByUserNo: integer('requested_by_user_no')
      .notNull()
      .references(() => users.userNo),
    requestedAt: createdAt(),
    signedAt: timestamp('signed_at', { withTimezone: true, precision: 3 }),
    timeZone: text('time_zone'),
    signedVersion: integer('signed_version'),
    blocksHash: text('blocks_hash'),
    signatureName: text('signature_name'),
    description: text('description'),
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
    removedByUserNo: integer('removed_by_user_no').references(() => users.userNo),
    removedReason: text('removed_reason'),
  },
  (t) => [
    uniqueIndex('note_signatures_live_unique')
      .on(t.noteNo, t.userNo)
      .where(sql`${t.removedAt} is null`),
    index('note_signatures_note_idx').on(t.noteNo),
    // The home's "Waiting for me" (inbox/queries.ts): the requests still asked of one signer, newest first.
    index('note_signatures_pending_signer_idx')
      .on(t.userNo, t.requestedAt)
      .where(sql`${t.status} = 'R' and ${t.removedAt} is null`),
  ],
);

/**
 * Reminders sent to a signer who has not answered a request (`/v1/project/signature/remind`): by its
 * requester or the project leader, at most once per SIGNATURE_OVERVIEW_LIMITS.reminderIntervalHours.
 */
export const signatureReminders = pgTable(
  'signature_reminders',
  {
    reminderId: serial('reminder_id').primaryKey(),
    signatureId: integer('signature_id')
      .notNull()
      .references(() => noteSignatures.signatureId),
    remindedByUserNo: integer('reminded_by_user_no')
      .notNull()
      .references(() => users.userNo),
    remindedAt: timestamp('reminded_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  // The overview's "last reminded" and the once-a-day check: one request's reminders, newest first.
  (t) => [index('signature_reminders_signature_idx').on(t.signatureId, t.remindedAt)],
);

/**
 * Comments on a lab note or a template draft (server/src/comments), beside the content and never in it.
 * A thread's first comment holds its anchor (the block, and Yjs relative positions of the range's ends
 * with the text quoted when it was opened) and its resolution; a reply names that first comment
 * (`replyTo`, one level). Deleting keeps the row: a first comment with replies stays as a mark, its text
 * emptied (the audit trail keeps it).
 */
export const comments = pgTable(
  'comments',
  {
    commentId: bigserial('comment_id', { mode: 'number' }).primaryKey(),
    noteNo: integer('note_no').references(() => labNotes.noteNo),
    templateNo: integer('template_no').references(() => templates.templateNo),
    replyTo: bigint('reply_to', { mode: 'number' }).references((): AnyPgColumn => comments.commentId),
    authorUserNo: integer('author_user_no')
      .notNull()
      .references(() => users.userNo),
    body: text('body').notNull(),
    blockUid: text('block_uid'),
    /** Encoded Yjs relative positions (base64) of the range's start and end; null for a whole block. */
    anchorStart: text('anchor_start'),
    anchorEnd: text('anchor_end'),
    quote: text('quote'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, precision: 3 }),
    resolvedByUserNo: integer('resolved_by_user_no').references(() => users.userNo),
    createdAt: createdAt(),
    editedAt: timestamp('edited_at', { withTimezone: true, precision: 3 }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('comments_note_idx').on(t.noteNo, t.commentId),
    index('comments_template_idx').on(t.templateNo, t.commentId),
    index('comments_reply_idx').on(t.replyTo),
  ],
);

export const nowSql = sql`now()`;

/** A controlled vocabulary: code and name rows a table cell offers as a choice (rows only by CSV import). */
export const dropboxes = pgTable(
  'dropboxes',
  {
    dropboxNo: serial('dropbox_no').primaryKey(),
    title: text('title').notNull(),
    /** Y used (offered in notes, readable by everyone), N unused. */
    status: text('status', { enum: ['Y', 'N'] })
      .notNull()
      .default('Y'),
    createdByUserNo: integer('created_by_user_no')
      .notNull()
      .references(() => users.userNo),
    updatedByUserNo: integer('updated_by_user_no')
      .notNull()
      .references(() => users.userNo),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dropboxes_title_unique').on(t.title), index('dropboxes_status_idx').on(t.status, t.dropboxNo)],
);

/** A dropbox's rows in their file order; an import replaces them all. */
export const dropboxRows = pgTable(
  'dropbox_rows',
  {
    dropboxNo: integer('dropbox_no')
      .notNull()
      .references(() => dropboxes.dropboxNo, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.dropboxNo, t.position] }), uniqueIndex('dropbox_rows_code_unique').on(t.dropboxNo, t.code)],
);

/**
 * A schema type ("Reagent"): the lab's catalogue of child schemas. `revision` goes up with every stored
 * change, so an editor that loaded an older one is refused instead of overwriting (9006).
 */
export const schemaTypes = pgTable(
  'schema_types',
  {
    schemasTypeNo: serial('schemas_type_no').primaryKey(),
    code: text('code').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Y used (offered in notes, readable by everyone), N unused. */
    status: text('status', { enum: ['Y', 'N'] })
      .notNull()
      .default('Y'),
    revision: integer('revision').notNull().default(1),
    /** The thumbnail (an uploaded image) and the server-made small copy lists show; display only, no revision. */
    thumbnailFileId: uuid('thumbnail_file_id').references((): AnyPgColumn => files.fileId),
    thumbnailSmallFileId: uuid('thumbnail_small_file_id').references((): AnyPgColumn => files.fileId),
    createdByUserNo: integer('created_by_user_no')
      .notNull()
      .references(() => users.userNo),
    updatedByUserNo: integer('updated_by_user_no')
      .notNull()
      .references(() => users.userNo),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('schema_types_code_unique').on(sql`lower(${t.code})`),
    uniqueIndex('schema_types_title_unique').on(sql`lower(${t.title})`),
    index('schema_types_status_idx').on(t.status, t.schemasTypeNo),
  ],
);

/** A child schema ("Sodium chloride") of a type, in the type's order; `revision` is what a note's schema block records. */
export const schemas = pgTable(
  'schemas',
  {
    schemaNo: serial('schema_no').primaryKey(),
    schemasTypeNo: integer('schemas_type_no')
      .notNull()
      .references(() => schemaTypes.schemasTypeNo, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['Y', 'N'] })
      .notNull()
      .default('Y'),
    revision: integer('revision').notNull().default(1),
    /** As the type's: display only, so setting it leaves the revision notes record alone. */
    thumbnailFileId: uuid('thumbnail_file_id').references((): AnyPgColumn => files.fileId),
    thumbnailSmallFileId: uuid('thumbnail_small_file_id').references((): AnyPgColumn => files.fileId),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('schemas_type_idx').on(t.schemasTypeNo, t.position)],
);

/** A schema's field/value entries in their order; an update that changes them replaces them all. */
export const schemaEntries = pgTable(
  'schema_entries',
  {
    schemaNo: integer('schema_no')
      .notNull()
      .references(() => schemas.schemaNo, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    status: text('status', { enum: ['Y', 'N'] })
      .notNull()
      .default('Y'),
  },
  (t) => [primaryKey({ columns: [t.schemaNo, t.position] })],
);

/**
 * A template: a live document `template.<no>` that notes start from. Its state moves draft (D) → checked
 * in (C) → approved (A) → (opened for editing) draft again; its approved versions are kept apart.
 */
export const templates = pgTable(
  'templates',
  {
    templateNo: serial('template_no').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    authorUserNo: integer('author_user_no')
      .notNull()
      .references(() => users.userNo),
    state: text('state', { enum: ['D', 'C', 'A'] })
      .notNull()
      .default('D'),
    /** How many times a draft was checked in: the revision a check-in names, for one winner among racers. */
    revision: integer('revision').notNull().default(0),
    /** The latest approved revision, or null before the first approval. */
    approvedRevision: integer('approved_revision'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** A deleted template disappears from lists; notes made from it keep pointing at its versions. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('templates_title_unique')
      .on(t.title)
      .where(sql`${t.deletedAt} is null`),
    index('templates_state_idx').on(t.state, t.templateNo),
  ],
);

/**
 * Each checked-in draft of a template, with the blocks and live state it was checked in with. Approval
 * gives it a version, a decimal kept exactly as typed (`numeric` keeps `1.10` as written and compares it
 * equal to `1.1`); from then on the database refuses any change but marking it superseded (hand-written
 * trigger in its migration).
 */
export const templateRevisions = pgTable(
  'template_revisions',
  {
    templateNo: integer('template_no')
      .notNull()
      .references(() => templates.templateNo),
    revision: integer('revision').notNull(),
    blocks: jsonb('blocks').notNull(),
    blocksHash: text('blocks_hash').notNull(),
    documentState: bytea('document_state').notNull(),
    checkedByUserNo: integer('checked_by_user_no')
      .notNull()
      .references(() => users.userNo),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    version: numeric('version'),
    approvedByUserNo: integer('approved_by_user_no').references(() => users.userNo),
    approvedAt: timestamp('approved_at', { withTimezone: true, precision: 3 }),
    supersededAt: timestamp('superseded_at', { withTimezone: true, precision: 3 }),
    returnedAt: timestamp('returned_at', { withTimezone: true, precision: 3 }),
    returnReason: text('return_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.templateNo, t.revision] }),
    // As written: versions approved when they were compared as two integers may hold both 1.1 and 1.10.
    uniqueIndex('template_revisions_version_unique')
      .on(t.templateNo, sql`(${t.version}::text)`)
      .where(sql`${t.approvedAt} is not null`),
  ],
);

/**
 * Who wrote in each revision's live draft: each user whose live update a server accepted while the draft
 * that became `revision` was open (recorded before the update is stored, so nobody whose writing was
 * checked in is missing). None of them may approve that revision.
 */
export const templateWriters = pgTable(
  'template_writers',
  {
    templateNo: integer('template_no')
      .notNull()
      .references(() => templates.templateNo),
    revision: integer('revision').notNull(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    firstWroteAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.templateNo, t.revision, t.userNo] })],
);

/** The temporary save of a template's draft, discarded at check-in and when its author leaves. */
export const templateDrafts = pgTable('template_drafts', {
  templateNo: integer('template_no')
    .primaryKey()
    .references(() => templates.templateNo),
  blocks: jsonb('blocks').notNull(),
  savedByUserNo: integer('saved_by_user_no')
    .notNull()
    .references(() => users.userNo),
  savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Which user each Yjs client of a live document belongs to, recorded as that client's first accepted
 * update arrives, so that a version's blocks can be marked with who wrote them.
 */
export const documentClients = pgTable(
  'document_clients',
  {
    documentName: text('document_name').notNull(),
    clientId: bigint('client_id', { mode: 'number' }).notNull(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    firstSeenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.documentName, t.clientId] })],
);

/**
 * Exports as background jobs (PDF, .eln, audit CSV): who asked for what, its progress, and the file it made
 * (kept under FILES_DIR/exports for EXPORT_LIMITS.keepDays). A running job's heartbeat tells a live job from
 * one whose server stopped.
 */
export const exportJobs = pgTable(
  'export_jobs',
  {
    jobId: uuid('job_id').primaryKey(),
    requestedByUserNo: integer('requested_by_user_no')
      .notNull()
      .references(() => users.userNo),
    format: text('format', { enum: ['pdf', 'eln', 'auditCsv'] }).notNull(),
    projectNo: integer('project_no').references(() => projects.projectNo),
    /** One note's version as PDF (instead of the whole project): the note and the version printed. */
    noteNo: integer('note_no').references(() => labNotes.noteNo),
    version: integer('version'),
    /** The calendar days asked for (both included), as typed. */
    startDate: text('start_date'),
    endDate: text('end_date'),
    language: text('language').notNull(),
    timeZone: text('time_zone').notNull(),
    /** A PDF made PDF/A-2b (archival) by Ghostscript. */
    pdfA: boolean('pdf_a').notNull().default(false),
    /** A PDF with each note's changes since the version before it. */
    changes: boolean('changes').notNull().default(false),
    /** A PDF with each note's comment threads as an appendix (not part of the signed content). */
    comments: boolean('comments').notNull().default(false),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    progress: integer('progress').notNull().default(0),
    fileName: text('file_name'),
    storagePath: text('storage_path'),
    size: bigint('size', { mode: 'number' }),
    sha256: text('sha256'),
    errorCode: text('error_code'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, precision: 3 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    /** When the file was removed after its keeping time. */
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('export_jobs_requester_idx').on(t.requestedByUserNo, t.createdAt),
    index('export_jobs_project_idx').on(t.projectNo, t.createdAt),
    index('export_jobs_status_idx').on(t.status, t.createdAt),
  ],
);

/** A text-search vector, written as a literal by the server (search/tokens.ts), never parsed by PostgreSQL. */
const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});

/**
 * The search index: one row per unit found by search (a note's or template's title or one of its blocks; a
 * project; a schema type or one of its schemas; a dropbox or one of its rows), its words
 * (search/tokens.ts) and the text its snippet is cut from. Derived from the live documents and records by
 * the indexer (search/indexer.ts); permission, deletion and a note's status are read from the records at
 * query time, so a row never outlives what may be read.
 */
export const searchUnits = pgTable(
  'search_units',
  {
    /** `file`: a note's attachment, its name and text, in parts (search/fileUnits.ts). */
    kind: text('kind', { enum: ['note', 'file', 'project', 'template', 'schema', 'dropbox'] }).notNull(),
    recordNo: integer('record_no').notNull(),
    /** The block's uid; '' for the record's title. */
    blockUid: text('block_uid').notNull(),
    /** The note's project, or the project itself; null for the libraries (templates, schemas, dropboxes). */
    projectNo: integer('project_no'),
    /** Position in the record, from 1 (0: the title). */
    blockOrder: integer('block_order').notNull(),
    /** The block's text as shown in a snippet (weighted words first: a heading, a chart's name). */
    text: text('text').notNull(),
    vector: tsvector('vector').notNull(),
    indexedAt: timestamp('indexed_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** A file block's unit (a note's attachment, a template's): the file, and its text's state when indexed; null for others. */
    fileId: uuid('file_id'),
    fileText: text('file_text', { enum: ['pending', 'extracted', 'unreadable', 'tooLarge', 'notText'] }),
    /**
     * A note's unit (its title, a block, an attachment's part): the note's last saved version when the
     * unit is as that version holds it, null when it is only in the live draft (written since, or never
     * saved). What a hit says it was found in.
     */
    savedVersion: integer('saved_version'),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.recordNo, t.blockUid] }),
    // The words' index in three parts by kind, as a partitioning by kind would make them: each kind's part
    // of a search (search/queries.ts names its kind) reads its own, so the attachments' or the records'
    // few matches are not found by intersecting every note's (docs/decisions.md "Search").
    index('search_units_notes_vector_idx')
      .using('gin', t.vector)
      .where(sql`${t.kind} = 'note'`),
    index('search_units_files_vector_idx')
      .using('gin', t.vector)
      .where(sql`${t.kind} = 'file'`),
    index('search_units_records_vector_idx')
      .using('gin', t.vector)
      .where(sql`${t.kind} in ('project', 'template', 'schema', 'dropbox')`),
    index('search_units_project_idx').on(t.projectNo),
  ],
);

/**
 * The text of each stored file content (by SHA-256: a template's file and the notes made from it share
 * theirs), extracted for search off the event loop by any process (files/text/extractor.ts): a row is
 * made `pending` by a trigger on `files` (the migration), taken under a lease (a row whose process died
 * is taken again once its lease ends), and ends `extracted` (its text in file_text_parts) or in a state saying
 * why not (FILE_TEXT_STATUS in shared). Its notes and templates are then queued for search.
 */
export const fileTexts = pgTable(
  'file_texts',
  {
    sha256: text('sha256').primaryKey(),
    status: text('status', { enum: ['pending', 'extracted', 'unreadable', 'tooLarge', 'notText'] })
      .notNull()
      .default('pending'),
    /** Extractions begun; one that never ended this many times (its process died with it) is not tried again. */
    attempts: integer('attempts').notNull().default(0),
    /** While pending: until when the process that took it works on it; after that any process takes it. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('file_texts_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * An extracted text (at most LIMITS.fileTextChars characters) in parts of whole lines, each with its
 * words (search/tokens.ts), made once per content: a tsvector holds at most 1 MB and positions up to
 * 16383, and a note's attachment units are copied from these in SQL rather than each note's indexing
 * reading and splitting the text again (search/fileUnits.ts). The parts joined by line breaks are the text.
 */
export const fileTextParts = pgTable(
  'file_text_parts',
  {
    sha256: text('sha256')
      .notNull()
      .references(() => fileTexts.sha256, { onDelete: 'cascade' }),
    /** From 0. */
    part: integer('part').notNull(),
    text: text('text').notNull(),
    vector: tsvector('vector').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.part] })],
);

/**
 * Documents whose search rows are to be derived again: a trigger on document_updates queues every
 * stored update's document, triggers on the library and project tables queue their records as
 * `<kind>.<no>` (the migrations); commands queue deletions. `seq` is renewed at each queueing,
 * so the indexer removes only the entry it has read and an update stored meanwhile is indexed again.
 */
export const searchQueue = pgTable('search_queue', {
  documentName: text('document_name').primaryKey(),
  seq: bigserial('seq', { mode: 'number' }).notNull(),
});

/**
 * What each person keeps across devices: the interface's language, theme and time zone (null: the
 * browser's own), how they hear of each notification event and their daily digest
 * (shared/src/notifications.ts). A person without a row has every default.
 */
export const userSettings = pgTable('user_settings', {
  userNo: integer('user_no')
    .primaryKey()
    .references(() => users.userNo),
  language: text('language'),
  theme: text('theme'),
  timeZone: text('time_zone'),
  /** NotificationChoices: only the events the person changed. */
  notificationChoices: jsonb('notification_choices').notNull().default({}),
  digestEnabled: boolean('digest_enabled').notNull().default(false),
  /** HH:MM in the person's time zone. */
  digestTime: text('digest_time').notNull().default('08:00'),
  /** The last digest made for the person: the next one gathers what came after it. */
  digestSentUpTo: timestamp('digest_sent_up_to', { withTimezone: true, precision: 3 }),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * One notification for one person (shared NOTIFICATION_EVENTS): what happened, who did it and where. The
 * record numbers it names are checked against what its reader may read each time it is shown, so a
 * notification never shows what its reader may no longer read. `inApp` false: made only for the mail.
 */
export const notifications = pgTable(
  'notifications',
  {
    notificationId: bigserial('notification_id', { mode: 'number' }).primaryKey(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    event: text('event').notNull(),
    actorUserNo: integer('actor_user_no').references(() => users.userNo),
    projectNo: integer('project_no'),
    noteNo: integer('note_no'),
    templateNo: integer('template_no'),
    jobId: uuid('job_id'),
    /** What the event needs besides the numbers: a reason, a signature's type, a count, a version. */
    payload: jsonb('payload').notNull().default({}),
    inApp: boolean('in_app').notNull().default(true),
    /** Chosen to be heard of by email: mailed at once, or gathered into the daily digest. */
    byEmail: boolean('by_email').notNull().default(false),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userNo, t.notificationId),
    index('notifications_unread_idx')
      .on(t.userNo, t.notificationId)
      .where(sql`${t.readAt} is null and ${t.inApp}`),
    index('notifications_digest_idx')
      .on(t.userNo, t.createdAt)
      .where(sql`${t.byEmail}`),
  ],
);

/**
 * Mails waiting to be sent, kept in the database so that any process sends them and none twice: a sender
 * claims a due row (`FOR UPDATE SKIP LOCKED`), marks it `sending` until `claimedUntil`, and a row whose
 * sender died is due again after that. Subject and text are made in the recipient's language when sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    mailId: bigserial('mail_id', { mode: 'number' }).primaryKey(),
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    /** `notification`: one event's mail; `digest`: the day's events gathered. */
    kind: text('kind', { enum: ['notification', 'digest'] }).notNull(),
    notificationId: bigint('notification_id', { mode: 'number' }).references(() => notifications.notificationId),
    /** A digest's notifications, by id. */
    notificationIds: jsonb('notification_ids'),
    /** shared MAIL_STATUSES; `withheld`: not sent, its recipient deactivated or no longer allowed to read what it tells of. */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'withheld'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    /** The Message-ID it is sent under, the same on every attempt. */
    messageId: text('message_id'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_status_idx').on(t.status, t.createdAt),
  ],
);

/** The notes, templates and schemas each person opened last, for the home's "Recently opened". */
export const recentOpens = pgTable(
  'recent_opens',
  {
    userNo: integer('user_no')
      .notNull()
      .references(() => users.userNo),
    kind: text('kind', { enum: ['note', 'template', 'schema'] }).notNull(),
    recordNo: integer('record_no').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userNo, t.kind, t.recordNo] }), index('recent_opens_user_idx').on(t.userNo, t.openedAt)],
);

/**
 * RFC 3161 time-stamping authorities, tried in `position` order: where to ask, how, and the certificate
 * chain their tokens must lead to (uploaded or fetched by an administrator; its first expiry is kept for the
 * warning the admin screens show 30 days ahead).
 */
export const timestampAuthorities = pgTable('timestamp_authorities', {
  authorityNo: serial('authority_no').primaryKey(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  username: text('username'),
  password: text('password'),
  policy: text('policy'),
  hash: text('hash', { enum: ['SHA-256', 'SHA-512'] })
    .notNull()
    .default('SHA-256'),
  chainPem: text('chain_pem').notNull(),
  /** The earliest end of validity among the chain's certificates. */
  chainExpiresAt: timestamp('chain_expires_at', { withTimezone: true, precision: 3 }).notNull(),
  position: integer('position').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * A time-stamp asked for one record (a signature, its removal, a signed note's saved version, an export, an
 * audit anchor): the exact bytes stamped, and the authority's token once it came. Rows wait here as a
 * durable queue: any process claims due ones (`FOR UPDATE SKIP LOCKED`, a lease in `claimedUntil`), asks
 * the authorities in order, and retries with backoff when all fail; evidence, never a gate.
 */
export const timestamps = pgTable(
  'timestamps',
  {
    stampId: bigserial('stamp_id', { mode: 'number' }).primaryKey(),
    subjectKind: text('subject_kind', { enum: ['signature', 'signatureRemoval', 'version', 'export', 'auditAnchor'] }).notNull(),
    subjectId: text('subject_id').notNull(),
    /** The exact bytes stamped (canonical JSON): what `openssl ts -verify -data` is given. */
    subject: bytea('subject').notNull(),
    status: text('status', { enum: ['pending', 'stamped', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    authorityNo: integer('authority_no').references(() => timestampAuthorities.authorityNo),
    authorityName: text('authority_name'),
    /** The chain the token was checked with, kept beside it: it stays verifiable when the authority changes or goes. */
    chainPem: text('chain_pem'),
    hash: text('hash'),
    policy: text('policy'),
    serial: text('serial'),
    genTime: timestamp('gen_time', { withTimezone: true, precision: 3 }),
    token: bytea('token'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('timestamps_subject_unique').on(t.subjectKind, t.subjectId),
    index('timestamps_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The people each block of a note has mentioned, as the mention watcher found them in the stored live
 * document (server/src/mentions/noteMentions.ts): one row per note, block and person, written the first
 * time the mention is seen, so that a person hears of it once however often it is deleted and typed
 * again. `outcome` says whether a notification was made, or why not.
 */
export const noteMentions = pgTable(
  'note_mentions',
  {
    noteNo: integer('note_no')
      .notNull()
      .references(() => labNotes.noteNo),
    blockUid: text('block_uid').notNull(),
    /** The mentioned person's ID, as the mention node holds it (the person may not exist). */
    userId: text('user_id').notNull(),
    outcome: text('outcome', { enum: ['notified', 'self', 'notReader', 'unknownPerson', 'overLimit', 'unattributed'] }).notNull(),
    /** Who wrote the mention (the user of the Yjs client that inserted it), when known. */
    actorUserNo: integer('actor_user_no').references(() => users.userNo),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.noteNo, t.blockUid, t.userId] })],
);

/**
 * Minisign public keys an administrator added by hand (Admin → Download), so that .eln archives signed by
 * another notebook's key verify here: at import, and for imports that arrived before the key did. One row
 * per key id; removal deletes it (audited), and the imports it verified go back to waiting for their key.
 */
export const signingKeys = pgTable('signing_keys', {
  keyNo: serial('key_no').primaryKey(),
  /** The key id as minisign prints it (16 upper-case hex digits). */
  keyId: text('key_id').notNull().unique(),
  /** The Ed25519 public key, base64 (32 bytes). */
  publicKey: text('public_key').notNull(),
  name: text('name').notNull(),
  organisation: text('organisation').notNull().default(''),
  addedByUserNo: integer('added_by_user_no')
    .notNull()
    .references(() => users.userNo),
  createdAt: createdAt(),
});

/**
 * Each .eln archive imported: its project, whose key signed it, and what a later check needs: the
 * BLAKE2b-512 hash of its ro-crate-metadata.json (what minisign signs) and the signature file as shipped.
 * An archive signed by a key unknown at import waits here (`keyNo` null) until an administrator adds its
 * key; the check against that key is then kept: `verified` or `mismatch`.
 */
export const elnImports = pgTable(
  'eln_imports',
  {
    importNo: serial('import_no').primaryKey(),
    projectNo: integer('project_no')
      .notNull()
      .references(() => projects.projectNo),
    archiveName: text('archive_name').notNull(),
    importedByUserNo: integer('imported_by_user_no')
      .notNull()
      .references(() => users.userNo),
    signed: text('signed', { enum: ['thisServer', 'otherKey', 'addedKey', 'unknownKey', 'unsigned'] }).notNull(),
    keyId: text('key_id'),
    metadataBlake2b: bytea('metadata_blake2b'),
    minisig: text('minisig'),
    /** The added key the signature was checked against (for `addedKey` and for a later check of `unknownKey`). */
    keyNo: integer('key_no').references(() => signingKeys.keyNo, { onDelete: 'set null' }),
    check: text('check', { enum: ['verified', 'mismatch'] }),
    checkedAt: timestamp('checked_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [index('eln_imports_key_id_idx').on(t.keyId)],
);

/**
 * Webhook endpoints (server/src/webhooks): where the notebook posts its events, signed by the Standard
 * Webhooks scheme with the endpoint's own secret. An administrator's endpoint without a project hears of
 * every event; one with a project (a leader's) hears only of that project's events.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    endpointId: serial('endpoint_id').primaryKey(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** shared WEBHOOK_EVENTS it is sent. */
    events: jsonb('events').$type<string[]>().notNull(),
    /** null: every event (administrators only); else that project's events only. */
    projectNo: integer('project_no').references(() => projects.projectNo),
    /** Who registered it: deliveries go while they may still read what they tell of. */
    ownerUserNo: integer('owner_user_no')
      .notNull()
      .references(() => users.userNo),
    /** `whsec_` and the base64 key the deliveries are signed with. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, still signing beside `secret` until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true, precision: 3 }),
    active: boolean('active').notNull().default(true),
    /** Why the server turned it off (its deliveries failed for the whole retry window), or null. */
    disabledReason: text('disabled_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_project_idx').on(t.projectNo)],
);

/**
 * The webhook outbox and its log: one row per event and endpoint, written in the transaction of the change
 * it tells of, delivered by any process in order per endpoint (webhooks/deliverer.ts).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    deliveryId: bigserial('delivery_id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.endpointId, { onDelete: 'cascade' }),
    /** The `webhook-id` header: the same on every try, so a receiver can tell a repeat. */
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    projectNo: integer('project_no'),
    noteNo: integer('note_no'),
    /** The JSON body's `data`: ids and what changed, never a note's content. */
    payload: jsonb('payload').notNull(),
    /** shared WEBHOOK_DELIVERY_STATUSES */
    status: text('status', { enum: ['pending', 'sending', 'delivered', 'failed', 'withheld'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, precision: 3 }),
    /** The last try: the receiver's HTTP status (null: no answer), how long it took, the start of its answer or the error. */
    lastStatus: integer('last_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastResponse: text('last_response'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, precision: 3 }),
    /** The retry window runs from the first try (an endpoint turned on again gives what waited a whole window). */
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('webhook_deliveries_queue_idx')
      .on(t.endpointId, t.deliveryId)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.deliveryId),
  ],
);
