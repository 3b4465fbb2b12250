import { eq } from 'drizzle-orm';
import { checkDropboxRows, dropboxRowsHaveProblems, type CallRequest, type DropboxImportAnswer, type api } from '@eln/shared';
import { appendAudit, auditedActor } from '../../audit/audit.js';
import type { Actor } from '../../auth/authUser.js';
import { dropboxes } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import type { Services } from '../../services.js';
import { readDropboxCsv } from '../csv.js';
import { canManageDropboxes, MANAGE_REFUSALS } from '../policy.js';
import { lockDropbox, replaceRows, rowsOf } from '../queries.js';
import { requireStorable } from './rows.js';

/**
 * Reads a dropbox CSV and checks every row. Without a dropbox it is a preview and stores nothing; with
 * one, the rows replace the dropbox's rows, all or none (refused with every row's problems otherwise),
 * audited with the rows before and after.
 */
export async function importDropboxCsv(
  { db }: Services,
  actor: Actor,
  input: CallRequest<typeof api.dropboxes.importCsv>,
): Promise<DropboxImportAnswer> {
  // Reading a file changes nothing, but only managers import, so only they preview.
  enforce(canManageDropboxes(actor.user), MANAGE_REFUSALS);
  const reading = readDropboxCsv(Buffer.from(input.file, 'base64'), input.encoding);
  if (!reading.ok) throw new AppError(reading.code);
  const rows = checkDropboxRows(reading.rows, (index) => reading.lines[index] ?? index + 2);
  const ok = !dropboxRowsHaveProblems(rows);
  if (input.dropboxNo === undefined) return { encoding: reading.encoding, rows, ok, stored: false };
  const stored = requireStorable(rows);
  const dropboxNo = input.dropboxNo;
  await db.transaction(async (tx) => {
    await lockDropbox(tx, dropboxNo);
    const before = await rowsOf(tx, dropboxNo);
    await replaceRows(tx, dropboxNo, stored);
    await tx.update(dropboxes).set({ updatedByUserNo: actor.user.userNo, updatedAt: new Date() }).where(eq(dropboxes.dropboxNo, dropboxNo));
    await appendAudit(tx, {
      ...auditedActor(actor),
      action: 'dropbox.imported',
      target: { type: 'dropbox', id: dropboxNo },
      before: { rows: before },
      after: { rows: stored, encoding: reading.encoding },
    });
  });
  return { encoding: reading.encoding, rows, ok: true, stored: true };
}
