import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { approveTemplate } from './commands/approveTemplate.js';
import { checkInTemplate } from './commands/checkInTemplate.js';
import { createTemplate } from './commands/createTemplate.js';
import { deleteTemplate } from './commands/deleteTemplate.js';
import { leaveTemplate } from './commands/leaveTemplate.js';
import { renameTemplate } from './commands/renameTemplate.js';
import { reopenTemplate } from './commands/reopenTemplate.js';
import { sendBackTemplate } from './commands/sendBackTemplate.js';
import { tempSaveTemplate } from './commands/tempSaveTemplate.js';
import { approvedTemplates, listTemplates, templateEditor, templateForEditing, templateViewer } from './queries.js';

/** Templates: the library notes start from, drafted live, checked in by their authors, approved by someone else. */
export function templateRoutes(services: Services) {
  const { db, config } = services;
  return bindCalls(api.templates, {
    list: ({ body, user }) => listTemplates(db, user, body, config.timeZone),
    choices: async () => ({ list: await approvedTemplates(db) }),
    create: ({ body, actor }) => createTemplate(services, actor, body),
    rename: ({ body, actor }) => renameTemplate(services, actor, body),
    editCheck: ({ body, user }) => templateForEditing(db, user, body.templateNo),
    reopen: ({ body, actor }) => reopenTemplate(services, actor, body),
    editor: ({ body, user }) => templateEditor(services, user, body.templateNo),
    viewer: ({ body, user }) => templateViewer(db, user, body),
    tempSave: ({ body, actor }) => tempSaveTemplate(services, actor, body),
    checkIn: ({ body, actor }) => checkInTemplate(services, actor, body),
    approve: ({ body, actor }) => approveTemplate(services, actor, body),
    sendBack: ({ body, actor }) => sendBackTemplate(services, actor, body),
    leave: ({ body, actor }) => leaveTemplate(services, actor, body),
    delete: ({ body, actor }) => deleteTemplate(services, actor, body),
  });
}
