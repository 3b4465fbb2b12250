import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { createDropbox } from './commands/createDropbox.js';
import { importDropboxCsv } from './commands/importDropboxCsv.js';
import { updateDropbox } from './commands/updateDropbox.js';
import { dropboxDetail, listDropboxes, requireReadableDropbox, sealedCellCopy } from './queries.js';

/** Dropboxes: the lab's code lists, managed by users with the dropbox flag, read by everyone when used. */
export function dropboxRoutes(services: Services) {
  const { db, config } = services;
  return bindCalls(api.dropboxes, {
    list: ({ body, user }) => listDropboxes(db, user, body, config.timeZone),
    detail: async ({ body, user }) => dropboxDetail(db, user, await requireReadableDropbox(db, user, body.dropboxNo)),
    cellCopy: ({ body, user }) => sealedCellCopy(services, user, body),
    create: ({ body, actor }) => createDropbox(services, actor, body),
    update: ({ body, actor }) => updateDropbox(services, actor, body),
    importCsv: ({ body, actor }) => importDropboxCsv(services, actor, body),
  });
}
