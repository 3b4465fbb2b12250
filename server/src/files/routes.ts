import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { api, LIMITS } from '@eln/shared';
import { bindCalls, registerMultipartCall } from '../http/route.js';
import type { Services } from '../services.js';
import { updateFileTypes } from './commands/updateFileTypes.js';
import { registerFileDownloads } from './download.js';
import { fileTypesAnswer } from './fileTypes.js';
import { freshFileLink } from './queries.js';
import { receiveUpload } from './upload.js';

const { upload: _multipart, ...jsonCalls } = api.files;

/** The JSON calls of files: a fresh signed link, the added file types and their change. */
export function fileRoutes(services: Services) {
  const { db, fileLinks } = services;
  return bindCalls(jsonCalls, {
    link: ({ body, user }) => freshFileLink(db, fileLinks, user, body.fileId),
    types: ({ user }) => fileTypesAnswer(db, user),
    updateTypes: ({ body, actor }) => updateFileTypes(services, actor, body),
  });
}

/** Uploads (multipart, images and files tied to a note, a template or a schema thumbnail) and downloads by signed link. */
export async function registerFileTransfers(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: LIMITS.fileBytes + 1, files: 1, fields: 4, parts: 5, fieldSize: 1024 } });
  registerMultipartCall(app, services, api.files.upload, (request) => receiveUpload(services, request));
  registerFileDownloads(app, services);
}
