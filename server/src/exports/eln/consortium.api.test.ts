import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedBlock } from '@eln/shared';
import { files, labNotes, noteVersions, projects, users } from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { toAuthFlags } from '../../users/flags.js';
import { importElnArchive, type ElnImportUser } from './index.js';

/**
 * Every example archive of the ELN Consortium's repository (fixtures/consortium, pinned commit in its
 * README) imports, and each keeps what its source gives: titles, text, tables, files, authors, dates,
 * comments and signatures (README's interchange table says the same per source).
 */
const CONSORTIUM = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'consortium');

let server: TestServer;
let db: Db;
let importer: ElnImportUser;

beforeAll(async () => {
  server = await startTestServer();
  db = server.database.db;
  const created = await server.createUser({ name: 'Consortium Importer' });
  const [row] = await db.select().from(users).where(eq(users.userId, created.userId));
  importer = { userNo: row!.userNo, userId: row!.userId, name: row!.name, auth: toAuthFlags(row!) };
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

interface ImportedNote {
  title: string;
  authors: string[];
  /** Every block's JSON, joined: what the note shows. */
  text: string;
  tables: number;
  files: string[];
}

/** Imports one fixture and answers the import's result with each note as the notebook now holds it. */
async function importFixture(file: string) {
  const result = await importElnArchive(db, server.config, importer, path.join(CONSORTIUM, file), { lang: 'en' });
  const [project] = await db.select().from(projects).where(eq(projects.projectNo, result.projectNo));
  const rows = await db.select().from(labNotes).where(eq(labNotes.projectNo, result.projectNo));
  const stored = rows.length
    ? await db
        .select()
        .from(files)
        .where(
          inArray(
            files.noteNo,
            rows.map((n) => n.noteNo),
          ),
        )
    : [];
  const notes: ImportedNote[] = [];
  for (const row of rows) {
    const [version] = await db.select().from(noteVersions).where(eq(noteVersions.noteNo, row.noteNo));
    const blocks = (version?.blocks ?? []) as SavedBlock[];
    notes.push({
      title: row.title,
      authors: row.importedAuthors ?? [],
      text: blocks.map((b) => b.content).join('\n'),
      tables: blocks.filter((b) => b.type === 'table').length,
      files: stored
        .filter((f) => f.noteNo === row.noteNo)
        .map((f) => f.originName)
        .sort(),
    });
  }
  const note = (title: string) => {
    const found = notes.find((n) => n.title === title);
    if (!found) throw new Error(`no note ${title} among ${notes.map((n) => n.title).join(' | ')}`);
    return found;
  };
  return { result, project: project!, notes, note };
}

/** What a note shows of its history: the lines of the section it ends with, and its own text. */
const has = (note: ImportedNote, ...parts: string[]) => {
  for (const part of parts) expect(note.text, `${note.title}: ${part}`).toContain(part);
};

describe('the ELN Consortium example archives (TheELNFileFormat examples/ at the pinned commit) all import', () => {
  it('AI4Green: the reaction as text and its table, the PDF summary, the author, the date and the comment', async () => {
    const { result, note, notes } = await importFixture('AI4Green/Export-workbook-2024-08-27-export.eln');
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [], noteCount: 1 });
    // Types uploads do not take here (.rxn, .json) are left out and named.
    expect(result.skippedFiles).toEqual(['./AI4-001/AI4-001.rxn', './AI4-001/AI4-001.json']);
    const amidation = note('Amidation');
    expect(notes).toHaveLength(1);
    expect(amidation).toMatchObject({ authors: ['Joe Davies'], files: ['AI4-001-summary.pdf'] });
    has(amidation, 'Reaction Smiles: OC(=O)C1=CC=CC=C1.CCN>>CCNC(=O)C1=CC=CC=C1', 'Created ');
    has(amidation, 'Some compound may have been lost in the aqueous phase during the extraction', 'Not imported: the file AI4-001.rxn');
  });

  it('BenchLineage: the workspace description, its author and date; JSON and CSV files left out by type', async () => {
    const { result, notes, note } = await importFixture('BenchLineage/benchlineage-0.3.0-demo.eln');
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [], noteCount: 1, fileCount: 0 });
    expect(result.skippedFiles.length).toBeGreaterThan(10);
    const [workspace] = notes;
    expect(note(workspace!.title)).toMatchObject({ authors: ['Shurong Cao'] });
    has(workspace!, 'BenchLineage workspace containing 2 studies and 3 experimental runs', 'Created ');
  });

  it('OpenSemanticLab: the minimal example, its author and date', async () => {
    const { result, note } = await importFixture('OpenSemanticLab/MinimalExample.osl.eln');
    expect(result).toMatchObject({ signed: 'unsigned', noteCount: 1, fileCount: 0, skippedFiles: [], uncheckedFiles: [] });
    const minimal = note('MinimalExample');
    expect(minimal.authors).toEqual(['TestPerson']);
    has(minimal, 'Created ');
  });

  it('PASTA: signed by a key unknown here (recorded, not refused), tasks with their metadata tables, images, dates', async () => {
    const { result, project, note, notes } = await importFixture('PASTA/PASTA.eln');
    // The signature names key EDEFEB1A3E2FC17B in byte order; minisign prints key ids as a little-endian number.
    expect(result).toMatchObject({ signed: 'unknownKey', keyId: '7BC12F3E1AEBEFED', uncheckedFiles: [] });
    expect(project.title).toBe('Exported from PASTA ELN');
    expect(notes.map((n) => n.title)).toEqual(expect.arrayContaining(['PASTAs Example Project', 'This is an example task', 'Data files']));
    expect(note('Data files').files).toEqual(['simple.png']);
    expect(note('Big instrument').tables).toBe(1);
    has(note('PASTAs Example Project'), 'Metadata in the original notebook', 'Created ', 'signed by a key unknown here (7BC12F3E1AEBEFED)');
    expect(result.skippedFiles).toContain('./PastasExampleProject/002_DataFiles/example.tif');
  });

  it('PASTA gold standard: its "sha256" values are no SHA-256 (MD5s, names), so every file imports not hash-checked', async () => {
    const { result, note, notes } = await importFixture('PASTA/goldStandard.eln');
    expect(result).toMatchObject({ signed: 'unsigned', noteCount: 4, fileCount: 7 });
    expect(result.uncheckedFiles).toHaveLength(15);
    const authors = ['Rachel Janßen', 'Violeta Aleksandrova Vetsova', 'Dominik Gerold Putz', 'Peter Mayer', 'Lena J. Daumann'];
    expect(notes.every((n) => JSON.stringify(n.authors) === JSON.stringify(authors))).toBe(true);
    const proton = notes.find((n) => n.title.startsWith('1H nuclear magnetic reson'))!;
    expect(proton.files).toEqual(['1H.jpeg', '1H.peak.png']);
    has(proton, 'Not hash-checked: the archive gives no SHA-256 for the file 1H.jpeg');
    expect(note(notes.find((n) => n.title.startsWith('13C'))!.title).files).toEqual(['13C.edit.png', '13C.jpeg']);
  });

  it('RSpace: unnamed documents called by their folder, the GIF kept, a PNG that is really a JPEG left out', async () => {
    const { result, note } = await importFixture('RSpace/RSpace-2023-12-08-14-44-xml-SELECTION-c0bEtpHcnNe-HA.eln');
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [], fileCount: 1 });
    expect(note('doc_Editable2-32').files).toEqual(['lemmings_1701965473304.gif']);
    expect(result.skippedFiles).toContain('./doc_Experiment-1-25/Picture1_1701965472094.png');
    has(note('doc_Experiment-1-25'), 'A file linked by an exported document or in a user Gallery');
  });

  it('SampleDB: signed by a key unknown here, objects with their property tables, files, authors, dates and comments', async () => {
    const { result, note } = await importFixture('SampleDB/sampledb_export.eln');
    expect(result).toMatchObject({ signed: 'unknownKey', keyId: '036A0F375E80968F', uncheckedFiles: [], fileCount: 2 });
    const ombe = note('OMBE-1');
    expect(ombe).toMatchObject({ authors: ['Instrument Scientist'], files: ['demo.png', 'example.txt'], tables: 1 });
    has(ombe, 'This is another, shorter comment', 'Created ', 'Metadata in the original notebook');
    expect(note('Measurement')).toMatchObject({ authors: ['Basic User'], tables: 1 });
  });

  it('SciLog: messages with their text, a table, an image and a PDF, dates and comments', async () => {
    const { result, notes } = await importFixture('SciLog/export---2026-06-05-03_25_10-GMT-2.eln');
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [], skippedFiles: [], noteCount: 7, fileCount: 2 });
    const byText = (part: string) => notes.find((n) => n.text.includes(part))!;
    expect(byText('hello this is a first message').tables).toBe(1);
    expect(byText('And an attached image:').files).toEqual(['696e3f8b61107b830b1eff20.jpeg']);
    expect(byText('and an attached file 02 Introduction.pdf').files).toEqual(['696e3fa961107b830b1eff24.pdf']);
    has(byText('hello world'), 'Comment by', 'Created ');
    expect(notes.some((n) => n.text.includes('this is a comment on a message'))).toBe(true);
  });

  it('datalab: repeated entities tolerated, files without SHA-256 not hash-checked, authors from `authors`, dates', async () => {
    const { result, project, note } = await importFixture('datalab/demo-IBPDKL.eln');
    expect(result).toMatchObject({ signed: 'unsigned', noteCount: 5 });
    expect(project.title).toBe('NaCoO2 electrode films');
    expect(result.uncheckedFiles).toHaveLength(7);
    // Its types (.xrdml, .mpr, .json) are not upload types here: named in the note, not stored.
    expect(result.skippedFiles).toHaveLength(7);
    const films = note('NaCoO2 electrode films');
    expect(films.authors).toEqual(['jdbocarsly@gmail.com', 'Matthew Evans']);
    has(films, 'Created ');
  });

  it('eLabFTW: HTML text with headings and tables, the image, authors, dates, comments and extra fields', async () => {
    const { result, note } = await importFixture('elabftw/export.eln');
    expect(result).toMatchObject({ signed: 'unsigned', uncheckedFiles: [], noteCount: 12, fileCount: 1 });
    const gold = note('Gold master experiment');
    expect(gold).toMatchObject({ authors: ['Nicola Mohr'], files: ['example.jpg'], tables: 2 });
    has(gold, 'Level 1 title', 'Great results on the DNA extraction', 'Created ');
    expect(note('Synthesis of Aspirin').tables).toBe(1);
    expect(note('Test the grouped extra fi').tables).toBe(1);
  });

  it('Kadi4Mat: records with their extras as tables, files without SHA-256 not hash-checked, authors and dates', async () => {
    const collections = await importFixture('kadi4mat/collections-example.eln');
    expect(collections.result).toMatchObject({ signed: 'unsigned', noteCount: 4, fileCount: 3 });
    expect(collections.result.uncheckedFiles).toHaveLength(13);
    const instrument = collections.note('Instrument used in experi');
    expect(instrument).toMatchObject({
      authors: ['Manideep'],
      files: ['Product-flyer_GeminiSEM_360.pdf', 'zeiss_gemini_360_microscope.jpeg'],
      tables: 1,
    });
    has(instrument, 'Not hash-checked', 'Created ');
    const records = await importFixture('kadi4mat/records-example.eln');
    expect(records.result).toMatchObject({ signed: 'unsigned', noteCount: 1, fileCount: 1 });
    expect(records.note('records-example')).toMatchObject({ authors: ['Manideep'], files: ['example.txt'], tables: 1 });
    has(records.note('records-example'), 'Measurement');
  });
});
