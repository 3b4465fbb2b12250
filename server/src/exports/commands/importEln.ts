import type { ElnImportAnswer, Language } from '@eln/shared';
import type { Actor } from '../../auth/authUser.js';
import type { Services } from '../../services.js';
import { importElnArchive } from '../eln/index.js';
import { localPath } from '../eln/importPlan.js';

export interface ElnImportInput {
  /** Where the uploaded archive was saved. */
  archivePath: string;
  /** The archive's name as the user gave it. */
  archiveName: string;
  /** Language of the history each imported note ends with. */
  language: Language;
}

/**
 * A .eln archive becomes a new project led by the caller (who needs the project flag): everything is
 * checked first, then one transaction writes the project, its notes and their audit records.
 */
export async function importEln({ db, config, elnImports }: Services, actor: Actor, input: ElnImportInput): Promise<ElnImportAnswer> {
  const imported = await importElnArchive(db, config, actor.user, input.archivePath, {
    lang: input.language,
    archiveName: input.archiveName,
    clientAddress: actor.clientAddress,
    budget: elnImports,
  });
  return {
    projectNo: imported.projectNo,
    title: imported.title,
    noteCount: imported.noteCount,
    signed: imported.signed,
    keyName: imported.keyName,
    // Named as the archive names them (its paths), for the person importing to find them.
    uncheckedFiles: imported.uncheckedFiles.map((id) => localPath(id) ?? id),
  };
}
