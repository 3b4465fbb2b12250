import { noteDocumentName, type api, type CallRequest, type NoteVersionEntry } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import { snapshotOfState } from '../../collab/documents/contentSnapshots.js';
import type { Services } from '../../services.js';
import { assertContentRules, savedContent } from '../contentCheck.js';
import { versionEntry, versionState } from '../history.js';
import { requireWritableNote } from '../queries.js';
import { storeNextVersion } from './saveVersion.js';

/**
 * Restores a saved version (`/note/version/restore`): its content becomes the live document's (every
 * editor sees it at once), and that is saved as the next version, naming the version restored and the
 * reason. Whoever may write the note (`canWriteNote`: refused on signed, finished and closed-project
 * notes as a save is). Everything is checked before the live document changes, so a refusal changes
 * nothing; earlier versions are never touched.
 */
export async function restoreVersion(
  services: Services,
  actor: Actor,
  input: CallRequest<typeof api.noteHistory.restore>,
): Promise<NoteVersionEntry> {
  const { db, live, config } = services;
  const ctx = await requireWritableNote(db, actor.user, input.labNoteNo);
  const noteNo = ctx.note.noteNo;
  const source = await versionState(db, noteNo, input.version);
  // The restored content must pass the save's rules: checked on the version before it goes live.
  assertContentRules(snapshotOfState(source), await savedContent(db, noteNo, ctx.note.version));
  const state = await live.replaceContent(noteDocumentName(noteNo), source);
  const { version } = await storeNextVersion(services, actor, ctx, state, {
    kind: 'restore',
    fromVersion: input.version,
    reason: input.reason,
  });
  return versionEntry(db, noteNo, version, config.timeZone);
}
