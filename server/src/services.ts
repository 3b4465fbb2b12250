import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config.js';
import type { Db } from './db/client.js';
import type { TokenService } from './auth/tokens.js';
import type { Throttle } from './auth/throttle.js';
import type { Mailer } from './system/mailer.js';
import type { LiveDocuments } from './collab/commands/liveDocuments.js';
import type { FileLinks } from './files/links.js';
import type { CatalogueSeals } from './collab/guard/catalogueSeals.js';
import type { ExportJobs } from './exports/jobs.js';
import type { ExportLinks } from './exports/links.js';
import type { ImportBudget } from './exports/eln/importBudget.js';
import type { DirectorySync } from './departments/directorySync.js';
import type { AuditAnchor } from './audit/anchor.js';
import type { SearchIndexer } from './search/indexer.js';
import type { FileTextExtractor } from './files/text/extractor.js';
import type { TimestampStamper } from './timestamps/stamper.js';
import type { MailOutbox } from './mail/outbox.js';
import type { NotificationStreams } from './notifications/stream.js';
import type { WebhookDeliverer } from './webhooks/deliverer.js';

/** What route modules need from the running server, handed to each at registration. */
export interface Services {
  config: ServerConfig;
  db: Db;
  /** Where temp saves (drafts) are written: commits that do not wait for the disk (Database.derivedRows). */
  draftsDb: Db;
  tokens: TokenService;
  throttle: Throttle;
  mailer: Mailer;
  log: FastifyBaseLogger;
  live: LiveDocuments;
  fileLinks: FileLinks;
  /** Seals on the catalogue copies notes hold (schema blocks, cell dropboxes). */
  catalogueSeals: CatalogueSeals;
  /** The export queue (PDF, .eln, audit CSV) and the signed download tokens of its files. */
  exportJobs: ExportJobs;
  exportLinks: ExportLinks;
  /** What the .eln imports under way in this process may unpack together. */
  elnImports: ImportBudget;
  /** Departments and people from the LDAP directory: runs on request and by the interval. */
  directorySync: DirectorySync;
  /** The audit chain's head, kept in a file outside the database as records are appended. */
  auditAnchor: AuditAnchor;
  /** Keeps the search index up to date with the live documents (every process shares the work). */
  searchIndexer: SearchIndexer;
  /** Extracts stored files' text for search, off the event loop (every process shares the work). */
  fileTexts: FileTextExtractor;
  /** Asks the RFC 3161 authorities for the queued time-stamps (every process shares the work). */
  timestamps: TimestampStamper;
  /** Sends the notification mails and daily digests of the outbox (every process shares the work). */
  mailOutbox: MailOutbox;
  /** Sends the webhook outbox's deliveries, and checks endpoints' addresses (every process shares the work). */
  webhooks: WebhookDeliverer;
  /** The bells' live streams held by this process, told of changes by every process (pg_notify). */
  notificationStreams: NotificationStreams;
}
