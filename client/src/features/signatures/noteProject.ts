import { PAGING, type ListAnswer, type ProjectEditorAnswer, type ProjectRow } from '@eln/shared';
import { call } from '../../api';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';

/*
 * A note's answer does not name its project, yet requesting signatures needs the project's participants
 * and removing one needs to know its leader. The project's note list remembers which project each of its
 * notes belongs to; a note opened some other way (a link, a restored tab) is looked up once among the
 * projects the user can see.
 */

/** At most this many notes are remembered (the oldest are forgotten first). */
export const REMEMBERED_NOTES = 1000;
/** The look-up reads at most this many pages of projects (100 each). */
const MAX_PAGES = 5;

/** Reads the remembered note → project numbers; anything malformed is dropped. */
export function parseNoteProjects(raw: string | null): Map<number, number> {
  const map = new Map<number, number>();
  if (!raw) return map;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return map;
  }
  if (!Array.isArray(value)) return map;
  for (const pair of value) {
    if (!Array.isArray(pair) || pair.length !== 2) continue;
    const [note, project] = pair as unknown[];
    if (Number.isSafeInteger(note) && Number.isSafeInteger(project) && (note as number) > 0 && (project as number) > 0) map.set(note as number, project as number);
  }
  return map;
}

/** Adds notes of a project, newest last, keeping at most `limit` notes. */
export function withNoteProjects(map: ReadonlyMap<number, number>, projectNo: number, noteNos: readonly number[], limit = REMEMBERED_NOTES): Map<number, number> {
  const next = new Map(map);
  for (const noteNo of noteNos) {
    next.delete(noteNo);
    next.set(noteNo, projectNo);
  }
  while (next.size > limit) {
    const oldest = next.keys().next().value;
    if (oldest === undefined) break;
    next.delete(oldest);
  }
  return next;
}

export function rememberNoteProjects(projectNo: number, noteNos: readonly number[]): void {
  const current = parseNoteProjects(readStorage(STORAGE_KEYS.noteProjects));
  if (noteNos.every((no) => current.get(no) === projectNo)) return;
  writeStorage(STORAGE_KEYS.noteProjects, JSON.stringify([...withNoteProjects(current, projectNo, noteNos)]));
}

function rememberedProjectOf(noteNo: number): number | null {
  return parseNoteProjects(readStorage(STORAGE_KEYS.noteProjects)).get(noteNo) ?? null;
}

async function editorOf(projectNo: number, noteNo: number, signal: AbortSignal | undefined): Promise<ProjectEditorAnswer | null> {
  const answer = await call<ProjectEditorAnswer>('/v1/project/editor', { projectNo }, { signal });
  rememberNoteProjects(projectNo, answer.list.map((note) => note.no));
  return answer.list.some((note) => note.no === noteNo) ? answer : null;
}

/**
 * The project of a note with its notes (`/v1/project/editor`): the remembered project first, else the
 * user's projects one by one (`ledBy`: only those this user leads, which is all that deciding "am I the
 * leader?" needs). Null when none of them holds the note.
 */
export async function findNoteProject(noteNo: number, signal?: AbortSignal, ledBy?: string, knownProjectNo?: number): Promise<ProjectEditorAnswer | null> {
  // The note's own answer names its project; the remembered one and the search serve older answers.
  const remembered = knownProjectNo ?? rememberedProjectOf(noteNo);
  const tried = new Set<number>();
  if (remembered !== null) {
    tried.add(remembered);
    const found = await editorOf(remembered, noteNo, signal).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return null;
    });
    if (found) return found;
  }
  // The list's search word is at most 100 characters long.
  if (ledBy && ledBy.length > 100) return null;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const search = ledBy ? { type: 'leader', value: ledBy } : {};
    const projects = await call<ListAnswer<ProjectRow>>('/v1/project/list', { ...search, page, pageSize: PAGING.maxPageSize }, { signal });
    for (const project of projects.list) {
      // The leader search matches names and IDs by substring: only projects this user leads count.
      if (tried.has(project.no) || (ledBy && project.userId !== ledBy)) continue;
      tried.add(project.no);
      const found = await editorOf(project.no, noteNo, signal);
      if (found) return found;
    }
    if (page * PAGING.maxPageSize >= projects.totalCount) break;
  }
  return null;
}
