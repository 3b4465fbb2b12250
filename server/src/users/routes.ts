import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  adminUserCreateRequest,
  adminUserListRequest,
  adminUserUpdateRequest,
  ADMIN_LEVEL,
  ERR,
  userNoRequest,
  userPickerRequest,
  type AdminUserRow,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import { revokeAllSessions } from '../auth/sessions.js';
import type { Queryable } from '../db/client.js';
import { users } from '../db/schema.js';
import { findDepartment } from '../departments/queries.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { fromAuthFlags } from './flags.js';
import { findUserWithDepartment, listUsersForAdmin, listUsersForPicker, toAdminUserRow } from './queries.js';

/** What the audit trail keeps of a user: everything an administrator can change, never the password hash. */
const auditView = (row: AdminUserRow) => ({
  userId: row.userId,
  name: row.name,
  employeeNo: row.employeeNo,
  phone: row.phone,
  departmentCode: row.departmentCode,
  level: row.level,
  auth: row.auth,
  active: row.active,
});

async function requireDepartment(q: Queryable, code: string | null | undefined): Promise<void> {
  if (code && !(await findDepartment(q, code))) throw new AppError(ERR.departmentMissing);
}

/** People: administrators keep the user list; every signed-in user can pick people. */
export function registerUserRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  defineRoute(app, services, {
    path: '/v1/user/list',
    access: 'user',
    failure: ERR.userLookup,
    body: userPickerRequest,
    handler: ({ body }) => listUsersForPicker(db, body),
  });

  defineRoute(app, services, {
    path: '/v1/admin/user/list',
    access: 'admin',
    failure: ERR.userLookup,
    body: adminUserListRequest,
    handler: ({ body }) => listUsersForAdmin(db, body, services.config.timeZone),
  });

  defineRoute(app, services, {
    path: '/v1/admin/user/detail',
    access: 'admin',
    failure: ERR.userLookup,
    body: userNoRequest,
    async handler({ body }) {
      const row = await findUserWithDepartment(db, body.userNo);
      if (!row) throw new AppError(ERR.notFound);
      return toAdminUserRow(row.user, row.departmentName);
    },
  });

  defineRoute(app, services, {
    path: '/v1/admin/user/create',
    access: 'admin',
    body: adminUserCreateRequest,
    async handler({ body, user: admin, clientAddress }) {
      await requireDepartment(db, body.departmentCode);
      const passwordHash = await hashPassword(body.password);
      return db.transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          .values({
            userId: body.userId,
            name: body.name,
            passwordHash,
            employeeNo: body.employeeNo || null,
            phone: body.phone || null,
            departmentCode: body.departmentCode ?? null,
            level: body.level,
            active: body.active,
            ...fromAuthFlags(body.auth),
          })
          .onConflictDoNothing()
          .returning();
        if (!created) throw new AppError(ERR.userDuplicate);
        const row = toAdminUserRow(created, null);
        await appendAudit(tx, {
          actor: admin,
          action: 'user.created',
          target: { type: 'user', id: created.userId },
          after: auditView(row),
          clientAddress,
        });
        return { userNo: created.userNo };
      });
    },
  });

  defineRoute(app, services, {
    path: '/v1/admin/user/update',
    access: 'admin',
    body: adminUserUpdateRequest,
    async handler({ body, user: admin, clientAddress }) {
      const existing = await findUserWithDepartment(db, body.userNo);
      if (!existing) throw new AppError(ERR.notFound);
      const self = existing.user.userNo === admin.userNo;
      if (self && ((body.level !== undefined && body.level !== ADMIN_LEVEL) || body.active === false)) throw new AppError(ERR.selfDemotion);
      await requireDepartment(db, body.departmentCode);
      const passwordHash = body.password ? await hashPassword(body.password) : undefined;
      // Deactivation and a new password end the user's sessions, a lower level can hide projects: the
      // user's open live connections are checked against the change now, not at their next check.
      await services.live.transaction(db, async (tx, commands) => {
        const [updated] = await tx
          .update(users)
          .set({
            name: body.name,
            employeeNo: body.employeeNo === undefined ? undefined : body.employeeNo || null,
            phone: body.phone === undefined ? undefined : body.phone || null,
            departmentCode: body.departmentCode === undefined ? undefined : body.departmentCode,
            level: body.level,
            active: body.active,
            ...(body.auth ? fromAuthFlags(body.auth) : {}),
            ...(passwordHash ? { passwordHash, passwordChangedAt: new Date() } : {}),
            updatedAt: new Date(),
          })
          .where(eq(users.userNo, body.userNo))
          .returning();
        if (!updated) throw new AppError(ERR.notFound);
        if (updated.active === false || passwordHash) {
          await revokeAllSessions(tx, updated.userNo, passwordHash ? 'password set by an administrator' : 'deactivated');
        }
        await appendAudit(tx, {
          actor: admin,
          action: 'user.updated',
          target: { type: 'user', id: updated.userId },
          before: auditView(toAdminUserRow(existing.user, existing.departmentName)),
          after: { ...auditView(toAdminUserRow(updated, null)), ...(passwordHash ? { passwordChanged: true } : {}) },
          clientAddress,
        });
        commands.recheckUsers([body.userNo]);
      });
      return null;
    },
  });
}
