import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { api, LIMITS } from '@eln/shared';
import { bindCalls, registerMultipartCall } from '../http/route.js';
import type { Services } from '../services.js';
import { registerFileDownloads } from './download.js';
import { freshFileLink } from './queries.js';
import { receiveUpload } from './upload.js';

/** The JSON calls of files: a fresh signed link. */
export function fileRoutes(services: Services) {
  const { db, fileLinks } = services;
  return bindCalls({ link: api.files.link }, { link: ({ body, user }) => freshFileLink(db, fileLinks, user, body.fileId) });
}

/** Uploads (multipart, images and files tied to a note, a template or a schema thumbnail) and downloads by signed link. */
export async function registerFileTransfers(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: LIMITS.fileBytes + 1, files: 1, fields: 4, parts: 5, fieldSize: 1024 } });
  registerMultipartCall(app, services, api.files.upload, (request) => receiveUpload(services, request));
  registerFileDownloads(app, services);
}
