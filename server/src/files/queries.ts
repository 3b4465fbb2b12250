import { eq } from 'drizzle-orm';
import { ERR, type FileUrlAnswer } from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Db } from '../db/client.js';
import { files } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import type { FileLinks } from './links.js';
import { ownerReadable } from './owners.js';

export type FileRecord = typeof files.$inferSelect;

/** A stored file's row, or undefined. */
export async function storedFile(db: Db, fileId: string): Promise<FileRecord | undefined> {
  const [file] = await db.select().from(files).where(eq(files.fileId, fileId));
  return file;
}

/** A fresh signed link to a file whose owner the caller may read; any other file answers as missing (9002). */
export async function freshFileLink(db: Db, links: FileLinks, user: AuthUser, fileId: string): Promise<FileUrlAnswer> {
  const file = await storedFile(db, fileId);
  if (!file || !(await ownerReadable(db, user, file))) throw new AppError(ERR.notFound);
  return { url: links.make(file.fileId), origin: file.originName };
}
