import { api } from '@eln/shared';
import { bindCalls } from '../http/route.js';
import type { Services } from '../services.js';
import { appendBlock } from './commands/appendBlock.js';
import { createNote } from './commands/createNote.js';
import { deleteNote } from './commands/deleteNote.js';
import { restoreVersion } from './commands/restoreVersion.js';
import { releaseHold, releaseOwnHolds, releaseProjectHolds } from './commands/releaseHolds.js';
import { saveDraft } from './commands/saveDraft.js';
import { saveVersion } from './commands/saveVersion.js';
import { compareNoteVersions, listNoteVersions, noteVersionDetail } from './history.js';
import { noteBlockList, noteViewer } from './queries.js';

/** Lab notes: creation, the live document's blocks, drafts, versions and their history, the viewer, and note holds. */
export function noteRoutes(services: Services) {
  return [...noteCallRoutes(services), ...noteHistoryRoutes(services)];
}

function noteCallRoutes(services: Services) {
  return bindCalls(api.notes, {
    create: ({ body, actor }) => createNote(services, actor, body),
    delete: ({ body, actor }) => deleteNote(services, actor, body),
    blockList: ({ body, user }) => noteBlockList(services, user, body.labNoteNo),
    viewer: ({ body, user }) => noteViewer(services, user, body.labNoteNo),
    saveDraft: ({ body, actor }) => saveDraft(services, actor, body),
    saveVersion: ({ body, actor }) => saveVersion(services, actor, body),
    appendBlock: ({ body, actor }) => appendBlock(services, actor, body),
    releaseHold: ({ body, actor }) => releaseHold(services, actor, body),
    releaseOwnHolds: ({ actor }) => releaseOwnHolds(services, actor),
    releaseProjectHolds: ({ body, actor }) => releaseProjectHolds(services, actor, body),
  });
}

function noteHistoryRoutes(services: Services) {
  return bindCalls(api.noteHistory, {
    list: ({ body, user }) => listNoteVersions(services, user, body.labNoteNo),
    detail: ({ body, user }) => noteVersionDetail(services, user, body),
    compare: ({ body, user }) => compareNoteVersions(services, user, body),
    restore: ({ body, actor }) => restoreVersion(services, actor, body),
  });
}
