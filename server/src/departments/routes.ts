import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  buildDepartmentTree,
  departmentCreateRequest,
  departmentJoinRequest,
  departmentSearchRequest,
  departmentUpdateRequest,
  emptyRequest,
  ERR,
  type CompanyDepartments,
  type DepartmentSearchAnswer,
  type DirectorySyncAnswer,
  type DirectorySyncStatus,
} from '@eln/shared';
import { appendAudit } from '../audit/audit.js';
import { companies, departments } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { defineRoute } from '../http/route.js';
import type { Services } from '../services.js';
import { ancestorsOf, findDepartment, listDepartments, searchActiveUsers, unassignedUserCount } from './queries.js';

/** Departments: the company's tree, kept by administrators, read by everyone who picks people. */
export function registerDepartmentRoutes(app: FastifyInstance, services: Services): void {
  const { db, config } = services;

  defineRoute(app, services, {
    path: '/v1/department/list',
    access: 'user',
    failure: ERR.departmentLookup,
    body: emptyRequest,
    handler: async () => ({ list: await listDepartments(db, config.company.code) }),
  });

  defineRoute(app, services, {
    path: '/v1/department/join',
    access: 'user',
    failure: ERR.departmentLookup,
    body: departmentJoinRequest,
    async handler({ body }): Promise<{ list: CompanyDepartments[] }> {
      const [company] = await db.select().from(companies).where(eq(companies.code, body.companyCode));
      if (!company) throw new AppError(ERR.noDepartment);
      const [rows, unassigned] = await Promise.all([listDepartments(db, company.code), unassignedUserCount(db)]);
      return {
        list: [
          { companyCode: company.code, companyName: company.name, children: buildDepartmentTree(rows), unassignedUserCount: unassigned },
        ],
      };
    },
  });

  defineRoute(app, services, {
    path: '/v1/department/search',
    access: 'user',
    failure: ERR.searchFailed,
    body: departmentSearchRequest,
    handler: ({ body }): Promise<DepartmentSearchAnswer> => searchActiveUsers(db, body),
  });

  // Directory synchronisation (LDAP): one run at a time; a failure changes nothing and says why (6001-6004, 6007-6009).
  defineRoute(app, services, {
    path: '/v1/department/sync',
    access: 'admin',
    failure: ERR.departmentSync,
    body: emptyRequest,
    handler: async ({ user, clientAddress }): Promise<DirectorySyncAnswer> => ({
      run: await services.directorySync.runNow(user, clientAddress),
    }),
  });

  defineRoute(app, services, {
    path: '/v1/department/sync/status',
    access: 'admin',
    failure: ERR.departmentLookup,
    body: emptyRequest,
    handler: (): Promise<DirectorySyncStatus> => services.directorySync.status(),
  });

  defineRoute(app, services, {
    path: '/v1/department/create',
    access: 'admin',
    body: departmentCreateRequest,
    async handler({ body, user, clientAddress }) {
      if (await findDepartment(db, body.code)) throw new AppError(ERR.departmentDuplicate);
      if (body.parentCode && !(await findDepartment(db, body.parentCode))) throw new AppError(ERR.departmentMissing);
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(departments)
          .values({ code: body.code, name: body.name, parentCode: body.parentCode ?? null, companyCode: config.company.code })
          .onConflictDoNothing()
          .returning();
        if (!row) throw new AppError(ERR.departmentDuplicate);
        await appendAudit(tx, {
          actor: user,
          action: 'department.created',
          target: { type: 'department', id: row.code },
          after: { code: row.code, name: row.name, parentCode: row.parentCode },
          clientAddress,
        });
        return row;
      });
      return { code: created.code };
    },
  });

  defineRoute(app, services, {
    path: '/v1/department/update',
    access: 'admin',
    body: departmentUpdateRequest,
    async handler({ body, user, clientAddress }) {
      const before = await findDepartment(db, body.code);
      if (!before) throw new AppError(ERR.departmentMissing);
      const parentCode = body.parentCode === undefined ? before.parentCode : body.parentCode;
      if (parentCode) {
        if (!(await findDepartment(db, parentCode))) throw new AppError(ERR.departmentMissing);
        if (parentCode === body.code || (await ancestorsOf(db, parentCode)).includes(body.code)) throw new AppError(ERR.departmentCycle);
      }
      await db.transaction(async (tx) => {
        const [after] = await tx
          .update(departments)
          .set({ name: body.name ?? before.name, parentCode, updatedAt: new Date() })
          .where(eq(departments.code, body.code))
          .returning();
        await appendAudit(tx, {
          actor: user,
          action: 'department.updated',
          target: { type: 'department', id: body.code },
          before: { name: before.name, parentCode: before.parentCode },
          after: { name: after?.name, parentCode: after?.parentCode },
          clientAddress,
        });
      });
      return null;
    },
  });
}
