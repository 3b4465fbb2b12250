import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { listProjectNotes } from '../notes/queries.js';
import { createProject } from './commands/createProject.js';
import { finishProject } from './commands/finishProject.js';
import { updateProject } from './commands/updateProject.js';
import { closePreviewFor, listProjects, projectDetail, requireReadableProject } from './queries.js';

/** Projects: lists, creation by users with the project flag, participants kept by the leader, closing. */
export function projectRoutes(services: Services) {
  const { db, config } = services;
  return bindCalls(api.projects, {
    list: ({ body, user }) => listProjects(db, user, body, config.timeZone),
    create: ({ body, actor }) => createProject(services, actor, body),
    update: ({ body, actor }) => updateProject(services, actor, body),
    detail: async ({ body, user }) => projectDetail(db, (await requireReadableProject(db, user, body.projectNo)).project, user),
    finish: ({ body, actor }) => finishProject(services, actor, body),
    closePreview: ({ body, user }) => closePreviewFor(db, user, body.projectNo),
    editor: async ({ body, user }) => {
      const { project } = await requireReadableProject(db, user, body.projectNo);
      return { info: await projectDetail(db, project, user), list: await listProjectNotes(db, project, user) };
    },
  });
}
