import type { FastifyRequest } from 'fastify';
import { api, ERR, LIMITS, uploadFields, type UploadAnswer } from '@eln/shared';
import { AppError } from '../http/errors.js';
import { authenticate } from '../http/route.js';
import type { Services } from '../services.js';
import { storeUpload } from './commands/storeUpload.js';
import type { NamedOwner } from './owners.js';
import { refuseDeclaredOversize } from './uploadLimits.js';

/** The form's owner fields, as the route table lists them. */
const OWNER_FIELDS = Object.keys(uploadFields.shape) as Array<keyof NamedOwner>;

/** The body size the client declared, or null when it did not (chunked). */
function declaredLength(request: FastifyRequest): number | null {
  const header = request.headers['content-length'];
  const length = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(length) ? length : null;
}

/**
 * Reads an upload's form (`/v1/common/file/add`): the owner's fields first, then `file`, stored as it
 * streams in (storeUpload). A body declared larger than any file may be is refused before anything else,
 * even the caller's token; a form without a file once it has ended.
 */
export async function receiveUpload(services: Services, request: FastifyRequest): Promise<UploadAnswer> {
  const declaredBytes = declaredLength(request);
  refuseDeclaredOversize(declaredBytes, LIMITS.fileBytes);
  // Who may upload is the route table's word; asked after the size, which is refused before anything else.
  const user = await authenticate(services, request, api.files.upload);
  if (!user) throw new AppError(ERR.sessionEnded);
  if (!request.isMultipart()) throw new AppError(ERR.unsupportedMediaType);
  const owner: NamedOwner = { labNoteNo: null, templateNo: null, schemasTypeNo: null, schemaNo: null };
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      const field = OWNER_FIELDS.find((name) => name === part.fieldname);
      if (field) owner[field] = Number(part.value);
      continue;
    }
    return storeUpload(
      services,
      { user, clientAddress: request.ip },
      { owner, fileName: part.filename, content: part.file, declaredBytes },
    );
  }
  throw new AppError(ERR.validation, { data: { fields: [{ field: 'file', reason: 'required' }] } });
}
