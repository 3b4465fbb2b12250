import type { FastifyInstance } from 'fastify';
import { api } from '@eln/shared';
import { languageOf } from '../http/envelope.js';
import { bindCalls, registerMultipartCall } from '../http/route.js';
import type { Services } from '../services.js';
import { downloadExport } from './commands/downloadExport.js';
import { requestExports } from './commands/requestExports.js';
import { exportPublicKey } from './eln/index.js';
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
    support: () => exportSupport(services),
  });
}

/** The .eln import (multipart): a .eln archive becomes a new project. */
export function registerElnImport(app: FastifyInstance, services: Services): void {
  registerMultipartCall(app, services, api.exports.importEln, receiveElnUpload(services));
}
