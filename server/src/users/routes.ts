import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createUser } from './commands/createUser.js';
import { updateUser } from './commands/updateUser.js';
import { adminUserDetail, listUsersForAdmin, listUsersForPicker } from './queries.js';

/** People: administrators keep the user list; every signed-in user can pick people. */
export function userRoutes(services: Services) {
  const { db, config } = services;
  return bindCalls(api.users, {
    picker: ({ body }) => listUsersForPicker(db, body),
    list: ({ body }) => listUsersForAdmin(db, body, config.timeZone),
    detail: ({ body }) => adminUserDetail(db, body.userNo),
    create: ({ body, actor }) => createUser(services, actor, body),
    update: ({ body, actor }) => updateUser(services, actor, body),
  });
}
