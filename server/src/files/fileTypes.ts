import { asc } from 'drizzle-orm';
import type { ExtraFileType, FileTypesAnswer } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { extraFileTypes } from '../db/schema.js';
import { canUpdateFileTypes } from './policy.js';

/** The types administrators added, in extension order; read at each upload, so every process follows a change at once. */
export async function addedFileTypes(q: Queryable): Promise<ExtraFileType[]> {
  const rows = await q.select().from(extraFileTypes).orderBy(asc(extraFileTypes.extension));
  return rows.map(({ extension, mimeType, check, signatures }) => ({ extension, mimeType, check, signatures }));
}

/** The added types, with whether the caller may change them. */
export async function fileTypesAnswer(q: Queryable, user: AuthUser): Promise<FileTypesAnswer> {
  return { extra: await addedFileTypes(q), abilities: { update: canUpdateFileTypes(user) === 'allowed' } };
}
