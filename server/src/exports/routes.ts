import type { FastifyInstance } from 'fastify';
import { api } from '@eln/shared';
import { languageOf } from '../http/envelope.js';
import { bindCalls, registerMultipartCall } from '../http/route.js';
import type { Services } from '../services.js';
import { downloadExport } from './commands/downloadExport.js';
import { requestExports } from './commands/requestExports.js';
import { WELL_KNOWN_KEYS } from './eln/crate.js';
import { exportPublicKey } from './eln/index.js';
import { addSigningKey, knownSigningKeys, listImports, removeSigningKey, verifyImport } from './eln/signingKeys.js';
import { receiveElnUpload } from './elnUpload.js';
import { sendExportFile, toJob } from './presenters.js';
import { exportLink, exportSupport, listExportJobs, visibleJob } from './queries.js';

/**
 * Export jobs: start (PDF or .eln of projects, audit CSV of the trail), list with progress, and fetch the
 * file through a signed token made for the requester alone. Each step is audited.
 */
export function exportRoutes(services: Services) {
  const { db } = services;
  // The .eln import takes a multipart body: registerElnImport registers it.
  const { importEln: _multipart, ...jsonCalls } = api.exports;
  return bindCalls(jsonCalls, {
    create: ({ body, actor, request }) => requestExports(services, actor, body, languageOf(request)),
    list: ({ body, user }) => listExportJobs(db, user, body),
    detail: async ({ body, user }) => toJob(user, await visibleJob(db, user, body.jobId)),
    link: ({ body, user }) => exportLink(services, user, body.jobId),
    download: async ({ body, actor, reply }) => sendExportFile(reply, await downloadExport(services, actor, body)),
    publicKey: () => exportPublicKey(db),
    knownKeys: ({ user }) => knownSigningKeys(db, user),
    addKey: ({ body, actor }) => addSigningKey(db, actor, body),
    removeKey: ({ body, actor }) => removeSigningKey(db, actor, body),
    imports: ({ user }) => listImports(db, user),
    verifyImport: ({ body, actor }) => verifyImport(db, actor, body),
    support: () => exportSupport(services),
  });
}

/** The .eln import (multipart): a .eln archive becomes a new project. */
export function registerElnImport(app: FastifyInstance, services: Services): void {
  registerMultipartCall(app, services, api.exports.importEln, receiveElnUpload(services));
}

const WELL_KNOWN_KEY_FILE = '/.well-known/eln-export-key.pub';

/**
 * The public keys an importing notebook checks this server's .eln signatures with: a JSON array of
 * schema.org MediaObjects (`encodingFormat` application/x-minisign-key) whose `contentUrl` is the key in
 * minisign's .pub format. Fixed paths and bodies the format prescribes, so outside the /v1 route table
 * (like /healthz); public, since a key is only of use to someone who does not have an account.
 */
export function registerWellKnownKeys(app: FastifyInstance, services: Services): void {
  const { db, config } = services;
  app.get(WELL_KNOWN_KEYS, async (_request, reply) => {
    const { keyId } = await exportPublicKey(db);
    return reply.type('application/json').send([
      {
        '@context': 'https://schema.org',
        '@type': 'MediaObject',
        '@id': `${config.publicUrl}${WELL_KNOWN_KEY_FILE}`,
        name: `minisign public key ${keyId}`,
        identifier: keyId,
        encodingFormat: 'application/x-minisign-key',
        contentUrl: `${config.publicUrl}${WELL_KNOWN_KEY_FILE}`,
      },
    ]);
  });
  app.get(WELL_KNOWN_KEY_FILE, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send((await exportPublicKey(db)).minisignPub),
  );
}
