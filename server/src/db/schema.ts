import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgSequence, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

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
    source: text('source', { enum: ['local', 'directory'] }).notNull().default('local'),
    /** The directory entry this department mirrors (LDAP DN), for synchronisation. */
    directoryId: text('directory_id'),
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

/** One signed-in session: the family of its refresh tokens. Revoking it refuses its access tokens at once. */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: uuid('session_id').primaryKey(),
    userNo: integer('user_no').notNull().references(() => users.userNo),
    createdAt: createdAt(),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true, precision: 3 }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    revokedReason: text('revoked_reason'),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userNo)],
);

/** Refresh tokens are stored only as SHA-256 hashes; each works once. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id').notNull().references(() => sessions.sessionId),
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
  userNo: integer('user_no').notNull().references(() => users.userNo),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
});

/** At most one licence (the spec's "only one licence can be registered"): the singleton column enforces it. */
export const licences = pgTable('licences', {
  singleton: boolean('singleton').primaryKey().default(true),
  companyName: text('company_name').notNull(),
  serialNumber: text('serial_number').notNull(),
  seats: integer('seats').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
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
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    actorUserNo: integer('actor_user_no'),
    actorUserId: text('actor_user_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    clientAddress: text('client_address'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorUserId),
    index('audit_log_action_idx').on(t.action),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

export const projects = pgTable(
  'projects',
  {
    projectNo: serial('project_no').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** ING in progress, C completed. */
    status: text('status', { enum: ['ING', 'C'] }).notNull().default('ING'),
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

/** The company-wide human number of lab notes. */
export const labNoteNumberSeq = pgSequence('lab_note_number_seq', { startWith: 1 });

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
    /** W writing, R signatures requested, T signed (locked), F finished (project closed). */
    status: text('status', { enum: ['W', 'R', 'T', 'F'] }).notNull().default('W'),
    /** The last saved version; 0 until the first save. */
    version: integer('version').notNull().default(0),
    templateNo: integer('template_no'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('lab_notes_number_unique').on(t.labNoteNumber),
    uniqueIndex('lab_notes_project_title_unique').on(t.projectNo, t.title).where(sql`${t.deletedAt} is null`),
    index('lab_notes_project_idx').on(t.projectNo, t.noteNo),
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
  },
  (t) => [primaryKey({ columns: [t.noteNo, t.version] })],
);

/** The temporary save of a note: the blocks as they were at the last draft save. */
export const noteDrafts = pgTable('note_drafts', {
  noteNo: integer('note_no')
    .primaryKey()
    .references(() => labNotes.noteNo),
  blocks: jsonb('blocks').notNull(),
  savedByUserNo: integer('saved_by_user_no')
    .notNull()
    .references(() => users.userNo),
  savedAt: timestamp('saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

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

/** Uploaded images and files, stored under FILES_DIR, each tied to the note it belongs to. */
export const files = pgTable(
  'files',
  {
    fileId: uuid('file_id').primaryKey(),
    noteNo: integer('note_no').references(() => labNotes.noteNo),
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
  (t) => [index('files_note_idx').on(t.noteNo)],
);

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
    /** R pending, T signed, F declined. */
    status: text('status', { enum: ['R', 'T', 'F'] }).notNull().default('R'),
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
    uniqueIndex('note_signatures_live_unique').on(t.noteNo, t.userNo).where(sql`${t.removedAt} is null`),
    index('note_signatures_note_idx').on(t.noteNo),
  ],
);

export const nowSql = sql`now()`;
