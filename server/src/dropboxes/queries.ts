import { and, asc, count, desc, eq, ilike, ne, sql } from 'drizzle-orm';
import {
  ERR,
  type CellDropboxCopy,
  type DropboxDetail,
  type DropboxListAnswer,
  type DropboxListFilter,
  type DropboxRow,
} from '@eln/shared';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { offsetOf, withinDates } from '../db/paging.js';
import { dropboxes, dropboxRows, users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import { canManageDropboxes, canOfferDropbox, canReadDropbox, OFFER_REFUSALS, READ_REFUSALS, visibleDropboxesSql } from './policy.js';
import { summaryOf } from './presenters.js';
import type { DropboxRecord } from './record.js';

const rowCount = sql<number>`(select count(*) from ${dropboxRows} where ${dropboxRows.dropboxNo} = ${dropboxes.dropboxNo})`.mapWith(Number);

/** The dropboxes the caller may see, newest first, filtered by title and status. */
export async function listDropboxes(q: Queryable, user: AuthUser, filter: DropboxListFilter, timeZone: string): Promise<DropboxListAnswer> {
  const where = and(
    visibleDropboxesSql(user),
    filter.value ? ilike(dropboxes.title, `%${escapeLike(filter.value)}%`) : undefined,
    filter.status ? eq(dropboxes.status, filter.status) : undefined,
    withinDates(dropboxes.updatedAt, filter, timeZone),
  );
  const [total] = await q.select({ n: count() }).from(dropboxes).where(where);
  // The page's numbers first; row counts and names for those rows only.
  const page = q
    .select({ dropboxNo: dropboxes.dropboxNo })
    .from(dropboxes)
    .where(where)
    .orderBy(desc(dropboxes.dropboxNo))
    .limit(filter.pageSize)
    .offset(offsetOf(filter))
    .as('page');
  const rows = await q
    .select({ dropbox: dropboxes, rows: rowCount, updatedByName: users.name })
    .from(page)
    .innerJoin(dropboxes, eq(dropboxes.dropboxNo, page.dropboxNo))
    .leftJoin(users, eq(users.userNo, dropboxes.updatedByUserNo))
    .orderBy(desc(dropboxes.dropboxNo));
  return {
    totalCount: Number(total?.n ?? 0),
    list: rows.map((r) => summaryOf(r.dropbox, r.rows, r.updatedByName)),
    abilities: { create: canManageDropboxes(user) === 'allowed' },
  };
}

/** How many dropboxes the caller may see (the dashboard's count). */
export async function countVisibleDropboxes(q: Queryable, user: AuthUser): Promise<number> {
  const [row] = await q.select({ n: count() }).from(dropboxes).where(visibleDropboxesSql(user));
  return Number(row?.n ?? 0);
}

/** The dropbox if the caller may read it, else 9002, as if it did not exist. */
export async function requireReadableDropbox(q: Queryable, user: AuthUser, dropboxNo: number): Promise<DropboxRecord> {
  const [dropbox] = await q.select().from(dropboxes).where(eq(dropboxes.dropboxNo, dropboxNo));
  if (!dropbox || canReadDropbox(user, dropbox) !== 'allowed') throw new AppError(READ_REFUSALS.hidden);
  return dropbox;
}

export async function rowsOf(q: Queryable, dropboxNo: number): Promise<DropboxRow[]> {
  return q
    .select({ code: dropboxRows.code, name: dropboxRows.name })
    .from(dropboxRows)
    .where(eq(dropboxRows.dropboxNo, dropboxNo))
    .orderBy(asc(dropboxRows.position));
}

export async function dropboxDetail(q: Queryable, user: AuthUser, dropbox: DropboxRecord): Promise<DropboxDetail> {
  const rows = await rowsOf(q, dropbox.dropboxNo);
  const [updatedBy] = await q.select({ name: users.name }).from(users).where(eq(users.userNo, dropbox.updatedByUserNo));
  return {
    ...summaryOf(dropbox, rows.length, updatedBy?.name ?? null),
    rows,
    abilities: { update: canManageDropboxes(user) === 'allowed' },
  };
}

/**
 * The server's sealed copy of a used dropbox (9002 otherwise, whoever asks) and one of its rows, chosen by
 * code, for a table cell; `code` null copies the list alone. A code that is not one of its rows is refused.
 */
export async function sealedCellCopy(
  { db, catalogueSeals }: Pick<Services, 'db' | 'catalogueSeals'>,
  user: AuthUser,
  request: { dropboxNo: number; code: string | null },
): Promise<CellDropboxCopy> {
  const dropbox = await requireReadableDropbox(db, user, request.dropboxNo);
  enforce(canOfferDropbox(dropbox), OFFER_REFUSALS);
  const row = request.code === null ? null : (await rowsOf(db, dropbox.dropboxNo)).find((each) => each.code === request.code);
  if (row === undefined) throw new AppError(ERR.validation, { data: { fields: [{ field: 'code', reason: 'invalidValue' }] } });
  return catalogueSeals.seal('dropboxCell', {
    dropboxNo: dropbox.dropboxNo,
    title: dropbox.title,
    code: row?.code ?? null,
    name: row?.name ?? null,
  });
}

/** Locks a dropbox's row until the transaction ends; 9002 when there is none. */
export async function lockDropbox(tx: Queryable, dropboxNo: number): Promise<DropboxRecord> {
  const [locked] = await tx.select().from(dropboxes).where(eq(dropboxes.dropboxNo, dropboxNo)).for('update');
  if (!locked) throw new AppError(ERR.notFound);
  return locked;
}

export async function titleTaken(q: Queryable, title: string, exceptDropboxNo?: number): Promise<boolean> {
  const [row] = await q
    .select({ no: dropboxes.dropboxNo })
    .from(dropboxes)
    .where(and(eq(dropboxes.title, title), exceptDropboxNo ? ne(dropboxes.dropboxNo, exceptDropboxNo) : undefined));
  return row !== undefined;
}

/** Replaces a dropbox's rows with checked ones, in the caller's transaction. */
export async function replaceRows(q: Queryable, dropboxNo: number, rows: readonly DropboxRow[]): Promise<void> {
  await q.delete(dropboxRows).where(eq(dropboxRows.dropboxNo, dropboxNo));
  await q.insert(dropboxRows).values(rows.map((row, position) => ({ dropboxNo, position, code: row.code, name: row.name })));
}
