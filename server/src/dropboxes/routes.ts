import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  checkDropboxRows,
  dropboxCellRequest,
  dropboxCreateRequest,
  dropboxImportRequest,
  dropboxListRequest,
  dropboxNoRequest,
  dropboxRowsHaveProblems,
  dropboxUpdateRequest,
  ERR,
  type CellDropbox,
  type CheckedDropboxRow,
  type DropboxImportAnswer,
  type DropboxRow,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import type { AuthUser } from '../auth/authUser.js';
import type { Queryable } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { dropboxes } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import { enforce } from '../http/verdicts.js';
import type { Services } from '../services.js';
import { readDropboxCsv } from './csv.js';
import { canManageDropboxes, canOfferDropbox, MANAGE_REFUSALS, OFFER_REFUSALS } from './policy.js';
import { dropboxDetail, listDropboxes, replaceRows, requireReadableDropbox, rowsOf, titleTaken } from './queries.js';

/** Rows as stored: trimmed by the check. */
const storedRows = (rows: readonly CheckedDropboxRow[]): DropboxRow[] => rows.map(({ code, name }) => ({ code, name }));

/** Refuses rows with any problem, answering every row with its problems so the screen can mark them. */
function requireStorable(rows: CheckedDropboxRow[]): DropboxRow[] {
  if (dropboxRowsHaveProblems(rows)) throw new AppError(ERR.dropboxRows, { data: { rows } });
  return storedRows(rows);
}

async function lockDropbox(tx: Queryable, dropboxNo: number) {
  const [locked] = await tx.select().from(dropboxes).where(eq(dropboxes.dropboxNo, dropboxNo)).for('update');
  if (!locked) throw new AppError(ERR.notFound);
  return locked;
}

function refuseDuplicateTitle(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError(ERR.dropboxDuplicate);
  throw error;
}

/** Dropboxes: the lab's code lists, managed by users with the dropbox flag, read by everyone when used. */
export function registerDropboxRoutes(app: FastifyInstance, services: Services): void {
  const { db, config } = services;
  const manage = (user: AuthUser) => enforce(canManageDropboxes(user), MANAGE_REFUSALS);

  defineRoute(app, services, {
    path: '/v1/dropbox/list',
    access: 'user',
    failure: ERR.dropboxLookup,
    body: dropboxListRequest,
    handler: ({ body, user }) => listDropboxes(db, user, body, config.timeZone),
  });

  defineRoute(app, services, {
    path: '/v1/dropbox/check',
    access: 'user',
    failure: ERR.dropboxLookup,
    body: dropboxNoRequest,
    async handler({ body, user }) {
      return dropboxDetail(db, user, await requireReadableDropbox(db, user, body.dropboxNo));
    },
  });

  defineRoute(app, services, {
    path: '/v1/dropbox/cell',
    access: 'user',
    failure: ERR.dropboxLookup,
    body: dropboxCellRequest,
    async handler({ body, user }): Promise<CellDropbox> {
      const dropbox = await requireReadableDropbox(db, user, body.dropboxNo);
      enforce(canOfferDropbox(dropbox), OFFER_REFUSALS);
      const row = body.code === null ? null : (await rowsOf(db, dropbox.dropboxNo)).find((each) => each.code === body.code);
      if (row === undefined) throw new AppError(ERR.validation, { data: { fields: [{ field: 'code', reason: 'invalidValue' }] } });
      return services.catalogueSeals.seal('dropboxCell', {
        dropboxNo: dropbox.dropboxNo,
        title: dropbox.title,
        code: row?.code ?? null,
        name: row?.name ?? null,
      });
    },
  });

  defineRoute(app, services, {
    path: '/v1/dropbox/create',
    access: 'user',
    body: dropboxCreateRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      if (await titleTaken(db, body.title)) throw new AppError(ERR.dropboxDuplicate);
      const rows = requireStorable(checkDropboxRows(body.rows));
      return db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(dropboxes)
            .values({ title: body.title, status: body.status, createdByUserNo: user.userNo, updatedByUserNo: user.userNo })
            .returning();
          if (!created) throw new Error('dropbox insert returned nothing');
          await replaceRows(tx, created.dropboxNo, rows);
          await appendAudit(tx, {
            actor: user,
            action: 'dropbox.created',
            target: { type: 'dropbox', id: created.dropboxNo },
            after: { title: created.title, status: created.status, rows },
            clientAddress,
          });
          return { dropboxNo: created.dropboxNo };
        })
        .catch(refuseDuplicateTitle);
    },
  });

  defineRoute(app, services, {
    path: '/v1/dropbox/update',
    access: 'user',
    body: dropboxUpdateRequest,
    async handler({ body, user, clientAddress }) {
      manage(user);
      if (await titleTaken(db, body.title, body.dropboxNo)) throw new AppError(ERR.dropboxDuplicate);
      await db
        .transaction(async (tx) => {
          const before = await lockDropbox(tx, body.dropboxNo);
          if (before.title === body.title && before.status === body.status) return;
          await tx
            .update(dropboxes)
            .set({ title: body.title, status: body.status, updatedByUserNo: user.userNo, updatedAt: new Date() })
            .where(eq(dropboxes.dropboxNo, body.dropboxNo));
          await appendAudit(tx, {
            actor: user,
            action: 'dropbox.updated',
            target: { type: 'dropbox', id: body.dropboxNo },
            before: { title: before.title, status: before.status },
            after: { title: body.title, status: body.status },
            clientAddress,
          });
        })
        .catch(refuseDuplicateTitle);
      return null;
    },
  });

  defineRoute(app, services, {
    path: '/v1/dropbox/import',
    access: 'user',
    body: dropboxImportRequest,
    async handler({ body, user, clientAddress }): Promise<DropboxImportAnswer> {
      // Reading a file changes nothing, but only managers import, so only they preview.
      manage(user);
      const reading = readDropboxCsv(Buffer.from(body.file, 'base64'), body.encoding);
      if (!reading.ok) throw new AppError(reading.code);
      const rows = checkDropboxRows(reading.rows, (index) => reading.lines[index] ?? index + 2);
      const ok = !dropboxRowsHaveProblems(rows);
      if (body.dropboxNo === undefined) return { encoding: reading.encoding, rows, ok, stored: false };
      const stored = requireStorable(rows);
      const dropboxNo = body.dropboxNo;
      await db.transaction(async (tx) => {
        await lockDropbox(tx, dropboxNo);
        const before = await rowsOf(tx, dropboxNo);
        await replaceRows(tx, dropboxNo, stored);
        await tx.update(dropboxes).set({ updatedByUserNo: user.userNo, updatedAt: new Date() }).where(eq(dropboxes.dropboxNo, dropboxNo));
        await appendAudit(tx, {
          actor: user,
          action: 'dropbox.imported',
          target: { type: 'dropbox', id: dropboxNo },
          before: { rows: before },
          after: { rows: stored, encoding: reading.encoding },
          clientAddress,
        });
      });
      return { encoding: reading.encoding, rows, ok: true, stored: true };
    },
  });
}
