import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { api, ELN_IMPORT_LIMITS, ERR, type ElnImportAnswer } from '@eln/shared';
import { AppError } from '../http/errors.js';
import { languageOf } from '../http/envelope.js';
import { authenticate } from '../http/route.js';
import type { Services } from '../services.js';
import { importEln } from './commands/importEln.js';

/** What the multipart form may carry besides the archive itself (its boundaries and part headers). */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Receives a .eln upload (multipart, one file part): refuses one declared too large before reading it,
 * authenticates the caller, and keeps the archive in a temporary folder only while it is checked and
 * imported; a refused one changes nothing.
 */
export function receiveElnUpload(services: Services) {
  return async (request: FastifyRequest): Promise<ElnImportAnswer> => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > ELN_IMPORT_LIMITS.archiveBytes + FORM_OVERHEAD_BYTES) throw new AppError(ERR.tooLarge);
    // Who may upload is the route table's word; asked after the size, which is refused before anything else.
    const user = await authenticate(services, request, api.exports.importEln);
    if (!user) throw new AppError(ERR.sessionEnded);
    if (!request.isMultipart()) throw new AppError(ERR.unsupportedMediaType);
    const part = await request.file({ limits: { fileSize: ELN_IMPORT_LIMITS.archiveBytes + 1, files: 1 } });
    if (!part) throw new AppError(ERR.validation);
    const folder = await mkdtemp(path.join(tmpdir(), 'eln-import-'));
    try {
      const archivePath = path.join(folder, 'archive.eln');
      await pipeline(part.file, createWriteStream(archivePath));
      if (part.file.truncated) throw new AppError(ERR.tooLarge);
      return await importEln(
        services,
        { user, clientAddress: request.ip },
        { archivePath, archiveName: path.basename(part.filename || 'archive.eln'), language: languageOf(request) },
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}
