import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createDepartment } from './commands/createDepartment.js';
import { updateDepartment } from './commands/updateDepartment.js';
import { companyDepartmentTree, listDepartments, searchActiveUsers } from './queries.js';

/** Departments: the company's tree, kept by administrators, read by everyone who picks people. */
export function departmentRoutes(services: Services) {
  const { db, config, directorySync } = services;
  return bindCalls(api.departments, {
    list: async () => ({ list: await listDepartments(db, config.company.code) }),
    companyTree: ({ body }) => companyDepartmentTree(db, body.companyCode),
    searchUsers: ({ body }) => searchActiveUsers(db, body),
    // Directory synchronisation (LDAP): one run at a time; a failure changes nothing and says why (6001-6004, 6007-6009).
    sync: async ({ actor }) => ({ run: await directorySync.runNow(actor.user, actor.clientAddress) }),
    syncStatus: () => directorySync.status(),
    create: ({ body, actor }) => createDepartment(services, actor, body),
    update: ({ body, actor }) => updateDepartment(services, actor, body),
  });
}
