/** Every business constant of the product specification (sections 5 and 9), defined once. */
export const LIMITS = {
  projectTitle: 25,
  projectDescription: 100,
  noteTitle: 25,
  templateTitle: 25,
  imageTitle: 30,
  schemaCode: 50,
  schemaTypeName: 50,
  schemaName: 50,
  schemaField: 25,
  schemaValue: 1000,
  /** A schema type's or schema's description (the spec sets none; a paragraph). */
  schemaDescription: 500,
  dropboxName: 25,
  dropboxCode: 100,
  dropboxRowName: 100,
  dropboxRows: 200,
  schemaEntriesPerSchema: 200,
  schemas: 100,
  /** A schema thumbnail's server-made small copy: its longer side, in pixels (the original is kept too). */
  schemaThumbnailSide: 256,
  /** Largest image (width × height) a thumbnail is made from: decoding needs 4 bytes a pixel. */
  schemaThumbnailSourcePixels: 25_000_000,
  licences: 1,
  tableMaxSide: 30,
  /** Characters of CSV text a script may append to a note as one table (`/note/block/append`). */
  appendedCsvChars: 200_000,
  /** Characters of a paragraph a script may append to a note. */
  appendedParagraphChars: 10_000,
  tableDefaultRows: 5,
  tableDefaultColumns: 5,
  imageBytes: 3 * 1024 * 1024,
  fileBytes: 50 * 1024 * 1024,
  /** Largest attachment whose text is extracted for search; a larger one is found by its name only. */
  fileTextSourceBytes: 20 * 1024 * 1024,
  /** Characters of an attachment's extracted text kept and searched (a 400-page book); the rest is not found. */
  fileTextChars: 1_000_000,
  signatureName: 50,
  userName: 50,
  employeeNo: 30,
  departmentCode: 30,
  departmentName: 50,
  email: 254,
  /** An IANA time zone's name (`America/Argentina/ComodRivadavia`, the longest, has 32 characters). */
  timeZone: 64,
  /** A search query's characters (`/v1/search`), and the terms (words, phrases, exclusions) it may hold. */
  searchQuery: 200,
  searchTerms: 16,
  /** Characters of text a search hit's snippet shows around its first match. */
  searchSnippet: 160,
  /**
   * Matches a search ranks and pages through at most: the first this many it meets (any more are
   * answered as `more`, the count shown as "1,000+"), so that a word in every other block costs what a
   * rare one does (docs/decisions.md "Search").
   */
  searchRanked: 1_000,
  /** The home's "Recently opened": the notes, templates and schemas it lists at most (`/v1/inbox`, section `recent`). */
  homeRecent: 12,
  /**
   * The opens kept for each person (recent_opens), newest first: more than the home shows, so that records
   * the person may no longer read leave the list without emptying it.
   */
  recentOpensKept: 60,
  /** Largest record number (serial key) a request may name: PostgreSQL's integer. */
  maxRecordNo: 2_147_483_647,
} as const;

/** The audit chain check: how many broken records its answer lists (it counts them all). */
export const AUDIT_VERIFY = { maxBrokenListed: 100 } as const;

/** The signature overview and its reminders (`api.signatures.noteOverview`, `projectOverview`, `remind`). */
export const SIGNATURE_OVERVIEW_LIMITS = {
  /** Hours between two reminders of one signature request (server-enforced; the button says when the next is possible). */
  reminderIntervalHours: 24,
  /** Notes on one page of a project's overview: at most, and when the request does not say. */
  pageSize: 50,
  defaultPageSize: 20,
} as const;

/** Mentions of people in a note or a comment (shared/src/mentions.ts). */
export const MENTION_LIMITS = {
  /** People one text (a comment, or what one save of a note adds) may mention and so notify. */
  perText: 20,
  /** People the `@` suggestions offer at most for what was typed (`/v1/project/note/mention/candidates`). */
  candidates: 20,
  /** Characters typed after `@` that the suggestions filter by. */
  query: 50,
  /** People one look-up of mentioned people names (`/v1/project/note/mention/people`): a note's mentions. */
  people: 200,
} as const;

/**
 * Comment threads on a note or a template draft (server/src/comments). They live beside the content, never
 * in it: a comment changes no version and no fingerprint.
 */
export const COMMENT_LIMITS = {
  /** Characters of one comment's text (mention tokens count as written). */
  body: 4000,
  /** Threads one note or template may hold (deleted ones not counted). */
  threadsPerPlace: 500,
  /** Replies one thread may hold (deleted ones not counted). */
  repliesPerThread: 200,
  /** Characters of the anchored text kept as the thread's quote (a longer selection is cut, with an ellipsis). */
  quote: 300,
  /** Characters of one encoded Yjs relative position (base64): a client ID and a clock, or a type's name, take a few dozen. */
  position: 400,
  /** Characters of a block's uid an anchor names. */
  blockUid: 64,
} as const;

/** The bell's notifications (`api.notifications`) and their live stream. */
export const NOTIFICATION_LIMITS = {
  /** Notifications one `read` call marks by id. */
  readIds: 100,
  /** A page of the list: at most, and when the request does not say. */
  pageSize: 50,
  defaultPageSize: 20,
  /** The stream sends a comment this often, so that proxies do not cut a quiet connection (nginx waits 60 s). */
  heartbeatSeconds: 25,
  /**
   * Bytes of one `pg_notify` payload naming recipients (PostgreSQL refuses 8,000 and more): a larger
   * fan-out is told in several.
   */
  pushPayloadBytes: 7_900,
} as const;
/**
 * Limits of the live-editing websocket (`/collab`) that keep one client from exhausting the server.
 */
export const COLLAB_LIMITS = {
  /**
   * Largest encoded Yjs state of one live document. A note of 100,000 characters encodes to ~160 kB, a
   * note of twenty 30 x 30 tables to ~1 MB; 4 MiB leaves room for the longest real note while keeping
   * block derivation and loading well under 100 ms (a 28 MB note took 571 ms to list).
   */
  documentBytes: 4 * 1024 * 1024,
  /** Largest websocket message: the first sync of a document at its limit, with room to spare. */
  messageBytes: 8 * 1024 * 1024,
  /**
   * What a socket may send before it has authenticated: a provider sends its token, a state vector and
   * its awareness (a few kB). A provider that queued many edits offline may send more at once: its
   * socket is closed, and it reconnects and syncs them after authenticating, losing nothing.
   */
  preAuthBytes: 64 * 1024,
  /** A socket that has not authenticated a document within this time is closed. */
  preAuthTimeoutMs: 10_000,
  /**
   * Open sockets per client address: the editor holds one per open note and browser tab, and an office
   * may reach the server through one address (NAT); a flood of hundreds is refused before the upgrade
   * (HTTP 429), and each socket not yet authenticated costs at most preAuthBytes.
   */
  socketsPerAddress: 200,
  /**
   * What the server may hold unsent for one socket. A client that stops reading (a stalled network, a
   * suspended laptop) would otherwise keep every edit and presence change of its notes in the server's
   * memory for as long as its socket stays open. Twice the first sync of a document at its limit: past
   * it the socket is closed, and the provider reconnects and syncs what it missed, losing nothing.
   */
  unsentBytes: 8 * 1024 * 1024,
} as const;

/**
 * What an .eln archive (a ZIP) may hold to be imported, checked from its central directory before anything is
 * unpacked, so a zip bomb is refused at once: yauzl then makes sure no entry unpacks to more than it
 * declared. A 200-note project with 50 MB of files is a few thousand entries and well under 1 GB.
 */
export const ELN_IMPORT_LIMITS = {
  /** The uploaded archive. */
  archiveBytes: 1024 * 1024 * 1024,
  /** Entries (files and folders) in the archive. */
  entries: 20_000,
  /** All entries unpacked together. */
  totalBytes: 4 * 1024 * 1024 * 1024,
  /** One entry unpacked: an attachment is at most LIMITS.fileBytes, a note's PDF may be larger. */
  entryBytes: 512 * 1024 * 1024,
  /** ro-crate-metadata.json, read whole to be parsed (it lists every file, and the project's audit records). */
  metadataBytes: 64 * 1024 * 1024,
  /** A saved version's blocks (JSON), read whole to be parsed. */
  blocksBytes: 32 * 1024 * 1024,
  /** An entry larger than compressionCheckBytes may unpack to at most this many times its packed size. */
  compressionRatio: 1000,
  compressionCheckBytes: 1024 * 1024,
  /**
   * All entries together may unpack to at most this many times the uploaded archive (and totalBytes at
   * most): many small entries, each under compressionCheckBytes, cannot add up to a bomb. Archives of
   * notes (JSON, HTML, PDFs, images) unpack to a few times their size.
   */
  archiveRatio: 100,
  /** What the imports running at once in one server process may unpack together; another waits its turn (8019). */
  concurrentBytes: 4 * 1024 * 1024 * 1024,
} as const;

/** Minisign public keys administrators add by hand (Admin → Download). */
export const SIGNING_KEY_LIMITS = {
  /** The pasted .pub text (a comment line and the key line; minisign's own is about 150 characters). */
  publicKey: 2000,
  name: 100,
  organisation: 200,
  /** Imports the admin list shows, newest first. */
  importList: 100,
} as const;

/** How much an archive of `archiveBytes` may unpack to: the ratio to its own size, and the absolute cap. */
export const elnInflationBound = (archiveBytes: number): number =>
  Math.min(ELN_IMPORT_LIMITS.totalBytes, ELN_IMPORT_LIMITS.archiveRatio * Math.max(0, archiveBytes));

/**
 * The mail outbox (server/src/mail): how often a mail is tried and how long each try may hold it. A try
 * that fails waits `retryBaseSeconds` doubled after each failure (at most `retryMaxSeconds`); after
 * `maxAttempts` tries the mail is `failed` and shown to administrators. A process holds a mail it sends
 * for `leaseSeconds`: one that dies meanwhile leaves it to any other after that. Each step of the SMTP
 * exchange (connecting, the greeting, every answer) may take `smtpTimeoutSeconds`, far less than the lease.
 */
export const MAIL_LIMITS = {
  maxAttempts: 10,
  retryBaseSeconds: 60,
  retryMaxSeconds: 4 * 60 * 60,
  leaseSeconds: 10 * 60,
  smtpTimeoutSeconds: 60,
  /** Mails one process claims at once. */
  batch: 20,
  /** A process looks for due mails and digests this often (and at once when a mail is queued here). */
  pollSeconds: 15,
  /**
   * A day's digest is made this long after its time, so that a change whose transaction began before
   * that time and committed just after it is still in that day's digest.
   */
  digestSettleSeconds: 60,
  /** The notifications one digest lists at most (the rest are counted). */
  digestItems: 50,
  /** Characters of the SMTP server's answer kept as a failed mail's last error. */
  lastErrorChars: 500,
} as const;

export const PAGING = { defaultPageSize: 10, startPage: 1, maxPageSize: 100 } as const;

export const PASSWORD_POLICY = { minLength: 12, maxLength: 128 } as const;

export const TIMING = {
  tempSaveDebounceMs: 500,
  infiniteScrollThresholdPx: 50,
  accessTokenSeconds: 15 * 60,
  refreshTokenSeconds: 14 * 24 * 60 * 60,
  passwordResetSeconds: 30 * 60,
  /** The client refreshes its access token this long before it expires. */
  refreshEarlySeconds: 30,
} as const;

export const ADMIN_LEVEL = 10;
export const MEMBER_LEVEL = 1;

export const EDITOR_DEFAULTS = { fontSize: 14, fontFamily: 'Noto Sans KR' } as const;

export const THEMES = ['s', 'b'] as const;
export type Theme = (typeof THEMES)[number];

export const IMAGE_TYPES = ['jpg', 'jpeg', 'png', 'gif'] as const;
export const FILE_TYPES = ['xls', 'xlsx', 'pptx', 'pdf', 'docx', 'txt', 'zip', 'rar', 'tar', 'odt'] as const;

/** File types administrators add to the spec's list (`api.files.updateTypes`). */
export const EXTRA_FILE_TYPE_LIMITS = {
  /** Added types at most. */
  types: 50,
  /** Longest extension, as the stored file name keeps it (server/src/files/fileName.ts). */
  extension: 8,
  mimeType: 100,
  /** First-byte signatures of one type (a format with variants, e.g. TIFF's two byte orders). */
  signatures: 4,
  signatureBytes: 32,
} as const;

/** Display values for the licence dialog (not rules). */
export const PRODUCT = { version: '1.4.3', releaseDate: '2025.08.21', licensedCount: 50 } as const;

/**
 * Trusted time-stamps (RFC 3161): an authority's URL and certificate chain, how long one request may take,
 * how long a claimed stamp is left to its process, and the retries (doubling from `firstRetryMs` up to
 * `maxRetryMs`) before a stamp is marked failed, about a day; the admin screens warn `expiryWarningDays`
 * before an authority's chain expires.
 */
export const TIMESTAMP_LIMITS = {
  url: 2048,
  authorityName: 100,
  chainChars: 64 * 1024,
  requestTimeoutMs: 10_000,
  claimMs: 60_000,
  firstRetryMs: 5_000,
  maxRetryMs: 60 * 60 * 1000,
  attempts: 30,
  expiryWarningDays: 30,
  /** Stamps one pass of a process asks for. */
  batch: 20,
  /** The audit chain's head is time-stamped at most this often, and only when it moved since the last one. */
  auditAnchorMinutes: 30,
  /** The latest time-stamped heads the audit verification compares with the chain. */
  auditAnchorsShown: 5,
} as const;

/** Personal access tokens (server/src/tokens): what a person may create, and how hard a token may be used. */
export const TOKEN_LIMITS = {
  name: 50,
  /** The longest a token may live: a year from its creation. */
  maxLifetimeDays: 365,
  /** Tokens a person may hold at once (not revoked, not expired). */
  perUser: 20,
  /** Calls one token may make in a minute before it is refused for the rest of the minute (TOKEN_CALLS_PER_MINUTE). */
  callsPerMinute: 600,
} as const;

/** Every personal access token starts with this, so that it is told from a session's access token at a glance. */
export const TOKEN_PREFIX = 'eln_pat_';
/** Webhooks (server/src/webhooks): endpoints, their deliveries' tries and what a delivery log keeps. */
export const WEBHOOK_LIMITS = {
  /** Endpoints per scope: the whole notebook (administrators), or one project. */
  maxPerScope: 20,
  urlMaxChars: 2000,
  descriptionMaxChars: 200,
  /** Random bytes of an endpoint's signing key (Standard Webhooks: 24 to 64). */
  secretBytes: 32,
  /** After a new secret is made, the one before it still signs beside it this long, while receivers change over. */
  secretOverlapHours: 24,
  /** A try gives up after this long: connecting, sending and reading the answer together. */
  timeoutSeconds: 10,
  /** The first retry waits this long, each later one twice as long as the one before, up to retryMaxSeconds. */
  retryBaseSeconds: 5,
  retryMaxSeconds: 60 * 60,
  /** A delivery still failing this long after its event disables its endpoint (its owner is notified). */
  retryWindowHours: 24,
  /** A claimed delivery is another process's to send once its claim is this old (a process that died). */
  leaseSeconds: 60,
  /**
   * A process looks for due deliveries this often (retries come due, a dead process's lease runs out, a
   * notification lost with a connection); new ones it looks for at once, as their change commits (pg_notify).
   */
  pollMs: 1000,
  /** Endpoints one process delivers to at once (one delivery each: in order per endpoint). */
  batch: 50,
  /** Deliveries of one endpoint claimed and sent one after another in one go (one claim, marked together). */
  run: 50,
  /** Characters of a receiver's answer kept in the delivery log. */
  responseExcerptChars: 500,
} as const;
