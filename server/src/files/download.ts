import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { storedFile } from './queries.js';

/**
 * `GET /files/:fileId` with a signed link (`FileLinks`): the right to fetch was checked when the link was
 * made, so an <img> needs no Authorization header. Images are shown inline, other files downloaded.
 */
export function registerFileDownloads(app: FastifyInstance, { db, config, fileLinks }: Services): void {
  app.get<{ Params: { fileId: string }; Querystring: { e?: string; s?: string } }>('/files/:fileId', async (request, reply) => {
    const { fileId } = request.params;
    const valid = /^[0-9a-f-]{36}$/.test(fileId) && fileLinks.verify(fileId, Number(request.query.e), String(request.query.s ?? ''));
    const file = valid ? await storedFile(db, fileId) : undefined;
    if (!file) return reply.code(404).type('text/plain').send('Not found');
    const fullPath = path.join(config.filesDir, file.storagePath);
    await stat(fullPath);
    const disposition = file.kind === 'image' ? 'inline' : 'attachment';
    return reply
      .header('content-type', file.mimeType)
      .header('content-length', String(file.size))
      .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.originName)}`)
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(createReadStream(fullPath));
  });
}
