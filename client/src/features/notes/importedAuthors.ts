import type { NoteSummary } from '@eln/shared';

/**
 * Who wrote a note, as its lists and header show it: an imported note's authors in the archive it came
 * from (names, never accounts here), else the account that wrote it. `imported` is null for a note written
 * here; `by` is then the writer, else the account that imported it.
 */
export function noteAuthors(
  note: Pick<NoteSummary, 'name' | 'importedAuthors'>,
  unknownAuthor: string,
): { names: string; imported: boolean; by: string } {
  if (note.importedAuthors === null) return { names: note.name, imported: false, by: note.name };
  return { names: note.importedAuthors.length ? note.importedAuthors.join(', ') : unknownAuthor, imported: true, by: note.name };
}
