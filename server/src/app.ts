import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import fastifyWebsocket from '@fastify/websocket';
import type { Extension, Hocuspocus } from '@hocuspocus/server';
import type { ServerConfig } from './config.js';
import type { Database } from './db/client.js';
import { loadSigningSecret } from './auth/secrets.js';
import { CatalogueSeals } from './collab/guard/catalogueSeals.js';
import { TokenService } from './auth/tokens.js';
import { Throttle } from './auth/throttle.js';
import { authRoutes } from './auth/routes.js';
import { ssoRoutes } from './auth/sso/ssoRoutes.js';
import { auditRoutes } from './audit/routes.js';
import { AuditAnchor, startAuditHeadLog } from './audit/anchor.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { inboxRoutes } from './inbox/routes.js';
import { departmentRoutes } from './departments/routes.js';
import { licenceRoutes } from './licence/routes.js';
import { ClientAuthors } from './collab/authors/clientAuthors.js';
import { WriterRecord } from './collab/authors/writers.js';
import { dropboxRoutes } from './dropboxes/routes.js';
import { schemaRoutes } from './schemas/routes.js';
import { projectRoutes } from './projects/routes.js';
import { systemRoutes } from './system/routes.js';
import { userRoutes } from './users/routes.js';
import { registerHealth } from './operations/health.js';
import { createCollab, mountCollab, startSessionRechecks, COLLAB_MAX_MESSAGE_BYTES, type CollabContext } from './collab/collab.js';
import { noteContentCheckOf, writeCheckOf, type DocumentKind } from './collab/documents/documentKinds.js';
import { CollabAuthorization } from './collab/connections/authorization.js';
import { DatabaseDocumentStore, type DocumentStore } from './collab/persistence/documentStore.js';
import { DurablePersistence, type DurablePersistenceOptions } from './collab/persistence/durablePersistence.js';
import { DocumentSizeLimit } from './collab/guard/documentSizeLimit.js';
import { ContentRuleGuard } from './collab/guard/contentRuleGuard.js';
import { LiveDocuments } from './collab/commands/liveDocuments.js';
import { singleProcessChannel } from './collab/commands/liveControl.js';
import { loggedControlChannel } from './collab/commands/commandLog.js';
import { labNoteDocumentKind } from './notes/documentKind.js';
import { templateDocumentKind } from './templates/documentKind.js';
import { templateRoutes } from './templates/routes.js';
import { NoteHolds } from './notes/holds.js';
import { noteRoutes } from './notes/routes.js';
import { signatureOverviewRoutes, signatureRoutes } from './signatures/routes.js';
import { commentRoutes } from './comments/routes.js';
import { FileLinks } from './files/links.js';
import { fileRoutes, registerFileTransfers } from './files/routes.js';
import { ExportJobs } from './exports/jobs.js';
import { ExportLinks } from './exports/links.js';
import { ImportBudget } from './exports/eln/index.js';
import { exportMakers } from './exports/makers.js';
import { PdfPrinter } from './exports/pdf/index.js';
import { exportRoutes, registerElnImport, registerWellKnownKeys } from './exports/routes.js';
import { DirectorySync } from './departments/directorySync.js';
import { SearchIndexer } from './search/indexer.js';
import { TimestampStamper, type StamperOptions } from './timestamps/stamper.js';
import { timestampRoutes } from './timestamps/routes.js';
import { FileTextExtractor } from './files/text/extractor.js';
import { VersionChangesBackfill } from './notes/versionChanges.js';
import { searchRoutes } from './search/routes.js';
import { mentionRoutes } from './mentions/routes.js';
import { NoteMentionWatcher } from './mentions/noteMentions.js';
import { accountRoutes } from './account/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { registerOpenApiDocument } from './apiDocs/servedDocument.js';
import { notificationRoutes } from './notifications/routes.js';
import { NotificationStreams } from './notifications/stream.js';
import { installErrorHandling, isApiPath } from './http/errorHandler.js';
import { assertRouteTableBound, registerCalls } from './http/route.js';
import { installSecurityHeaders } from './http/security.js';
import { DEFAULT_CLIENT_DIST, serveClient } from './http/client.js';
import { createMailer } from './system/mailer.js';
import { MailOutbox, type MailOutboxOptions } from './mail/outbox.js';
import { mailRoutes } from './mail/routes.js';
import { WebhookDeliverer, type WebhookDelivererOptions } from './webhooks/deliverer.js';
import { webhookRoutes } from './webhooks/routes.js';
import type { Services } from './services.js';

/** Largest JSON body accepted by default; calls that carry more say so in their route. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  /** Where live documents are stored; tests wrap the database store to inject failures. */
  documentStore?: DocumentStore;
  persistence?: DurablePersistenceOptions;
  /** Live document families; features register theirs. Tests may add their own. */
  documentKinds?: DocumentKind[];
  collabExtensions?: Extension[];
  /** Access token life in seconds (default: the contract's 15 minutes); tests of expiry shorten it. */
  accessTokenSeconds?: number;
  /** How often open live connections must show a valid token again (default SESSION_RECHECK_MS). */
  sessionRecheckMs?: number;
  /** How often the time-stamper looks at its queue and how long an authority may take (tests shorten them). */
  stamper?: StamperOptions;
  /** The mail outbox's clock and timings (tests of digests and retries). */
  mail?: MailOutboxOptions;
  /** The webhook sender's clock, resolver and timings (tests of retries, SSRF and timeouts). */
  webhooks?: WebhookDelivererOptions;
}

export interface App {
  app: FastifyInstance;
  /** Every API call the server answers (method and URL), however it was declared: tests exercise them all. */
  apiRoutes: ReadonlyArray<{ method: string; url: string }>;
  services: Services;
  collab: Hocuspocus<CollabContext>;
  close(): Promise<void>;
}

/** Builds the whole server on an open database: API, websocket, client, without listening yet. */
export async function buildApp(config: ServerConfig, database: Database, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: config.trustProxy,
  });
  installErrorHandling(app);
  await installSecurityHeaders(app);
  const apiRoutes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url });
  });

  const secret = await loadSigningSecret(database.db, config.jwtSecret);
  // Cookies carry only the browser's refresh token (auth/refreshCookie.ts).
  await app.register(fastifyCookie);
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'] },
  });
  const tokens = new TokenService(database.db, app.jwt, options.accessTokenSeconds);
  const catalogueSeals = new CatalogueSeals(secret);
  const kinds = [labNoteDocumentKind(database.db), templateDocumentKind(database.db), ...(options.documentKinds ?? [])];
  // The store asks each document's kind, in the append's transaction, whether it may still be written.
  const documentStore = options.documentStore ?? new DatabaseDocumentStore(database, writeCheckOf(kinds));
  const persistence = new DurablePersistence(documentStore, app.log, options.persistence);
  const holds = new NoteHolds(database.db, app.log, config.port);
  await holds.removeStaleHolds();
  // Several processes: commands to live connections go through a log in the database, Redis rings; an
  // edit is applied only while this process has applied every command a change may wait for.
  const controlChannel = config.redisUrl ? await loggedControlChannel(database.db, config.redisUrl, config.redisPrefix, app.log) : null;
  const authorization = new CollabAuthorization(tokens, kinds, () => controlChannel?.upToDate());
  const collab = createCollab({
    authorization,
    // The size limit and the content rules come first: they refuse an update before anything else sees it applied.
    extensions: [
      new DocumentSizeLimit(),
      new ContentRuleGuard(noteContentCheckOf(kinds), catalogueSeals, app.log),
      new WriterRecord(kinds, app.log),
      new ClientAuthors(database.db, app.log),
      persistence,
      holds,
      ...(await redisExtension(config.redisUrl, config.redisPrefix)),
      ...(options.collabExtensions ?? []),
    ],
  });
  const stopRechecks = startSessionRechecks(collab, options.sessionRecheckMs);
  const auditAnchor = new AuditAnchor(database.db, config.auditAnchorFile, app.log);
  auditAnchor.start();
  const stopAuditHeadLog = startAuditHeadLog(database.db, app.log, config.auditHeadLogMs, auditAnchor);
  const live = new LiveDocuments(collab, persistence, documentStore, authorization, app.log, controlChannel ?? singleProcessChannel);
  // One browser per process prints every PDF, started at the first print.
  const pdfPrinter = new PdfPrinter({ executablePath: config.chromiumPath });
  const mailer = await createMailer(config.smtpUrl, config.mailFrom, app.log);
  const stamper = new TimestampStamper(database.db, app.log, options.stamper);
  const services: Services = {
    config,
    db: database.db,
    draftsDb: database.derivedRows,
    tokens,
    throttle: new Throttle(config.throttle),
    mailer,
    log: app.log,
    live,
    fileLinks: new FileLinks(secret),
    catalogueSeals,
    exportJobs: new ExportJobs(database.db, config.filesDir, app.log, exportMakers(database.db, config, pdfPrinter), () => stamper.kick()),
    exportLinks: new ExportLinks(secret),
    elnImports: new ImportBudget(),
    directorySync: new DirectorySync({ db: database.db, config, live, log: app.log }),
    auditAnchor,
    searchIndexer: new SearchIndexer(database.db, app.log, [new NoteMentionWatcher()]),
    fileTexts: new FileTextExtractor(database.db, config.filesDir, app.log),
    timestamps: stamper,
    mailOutbox: new MailOutbox(
      { db: database.db, mailer, log: app.log, publicUrl: config.publicUrl, timeZone: config.timeZone },
      options.mail,
    ),
    webhooks: new WebhookDeliverer(
      { db: database.db, log: app.log, allowLocal: config.webhooksAllowLocal, listen: (...args) => database.listen(...args) },
      options.webhooks,
    ),
    notificationStreams: new NotificationStreams(database.db, database, tokens, app.log, config.checkAnswers),
  };

  await services.live.start();
  services.exportJobs.start();
  services.directorySync.start();
  services.searchIndexer.start();
  services.fileTexts.start();
  services.timestamps.start();
  services.mailOutbox.start();
  await services.webhooks.start();
  await services.notificationStreams.start();
  // Sign-out, deactivation and membership changes end or correct the bells' streams at once, as they do live documents.
  services.live.onRecheckUsers((userNos) => services.notificationStreams.recheck(userNos));
  const versionChanges = new VersionChangesBackfill(database.db, app.log);
  versionChanges.start();
  // After a Redis blip, edits other processes published meanwhile are read from the store.
  controlChannel?.onResubscribed(() => services.live.catchUpFromStore());

  registerCalls(app, services, authRoutes(services));
  registerCalls(app, services, ssoRoutes(services));
  registerCalls(app, services, auditRoutes(services));
  registerCalls(app, services, systemRoutes(services));
  registerCalls(app, services, departmentRoutes(services));
  registerCalls(app, services, userRoutes(services));
  registerCalls(app, services, [...projectRoutes(services)]);
  registerCalls(app, services, dashboardRoutes(services));
  registerCalls(app, services, inboxRoutes(services));
  registerCalls(app, services, noteRoutes(services));
  registerCalls(app, services, mentionRoutes(services));
  registerCalls(app, services, signatureRoutes(services));
  registerCalls(app, services, signatureOverviewRoutes(services));
  registerCalls(app, services, commentRoutes(services));
  await registerFileTransfers(app, services);
  registerCalls(app, services, fileRoutes(services));
  registerCalls(app, services, licenceRoutes(services));
  registerCalls(app, services, dropboxRoutes(services));
  registerCalls(app, services, schemaRoutes(services));
  registerCalls(app, services, templateRoutes(services));
  registerCalls(app, services, exportRoutes(services));
  registerCalls(app, services, searchRoutes(services));
  registerCalls(app, services, timestampRoutes(services));
  registerCalls(app, services, accountRoutes(services));
  registerCalls(app, services, tokenRoutes(services));
  registerCalls(app, services, mailRoutes(services));
  registerCalls(app, services, notificationRoutes(services));
  registerCalls(app, services, webhookRoutes(services));
  registerElnImport(app, services);
  assertRouteTableBound(app);
  registerOpenApiDocument(app, config);

  await app.register(fastifyWebsocket, { options: { maxPayload: COLLAB_MAX_MESSAGE_BYTES } });
  await app.register(async (scope) => mountCollab(scope, collab, config.socketLimits));

  const health = registerHealth(app, { database: database.engine, live: collab, webhooks: services.webhooks, metrics: config.metrics });
  registerWellKnownKeys(app, services);
  await serveClient(app, config.clientDist ?? DEFAULT_CLIENT_DIST);

  return {
    app,
    apiRoutes,
    services,
    collab,
    async close() {
      health.stop();
      stopRechecks();
      stopAuditHeadLog();
      await auditAnchor.stop();
      await services.exportJobs.stop();
      await pdfPrinter.close();
      await services.directorySync.stop();
      await services.searchIndexer.stop();
      await services.fileTexts.stop();
      await services.timestamps.stop();
      await services.mailOutbox.stop();
      await services.webhooks.stop();
      await services.notificationStreams.stop();
      await versionChanges.stop();
      // Nothing acknowledged may be lost: store every pending update before connections and database go.
      await persistence.flushAll();
      collab.closeConnections();
      await persistence.drainAll();
      await services.live.stop();
      await app.close();
    },
  };
}

/** With REDIS_URL, several server processes share live documents through Redis. */
async function redisExtension(redisUrl: string | null, prefix: string): Promise<Extension[]> {
  if (!redisUrl) return [];
  const { Redis } = await import('@hocuspocus/extension-redis');
  const url = new URL(redisUrl);
  return [new Redis({ host: url.hostname, port: Number(url.port || 6379), prefix, options: { password: url.password || undefined } })];
}
