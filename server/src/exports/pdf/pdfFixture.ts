import { and, eq } from 'drizzle-orm';
import {
  api,
  noteDocumentName,
  type ApiResponse,
  type CallAnswer,
  type CallInput,
  type CallSpec,
  type PmNode,
  type UploadAnswer,
} from '@eln/shared';
import { documentUpdates, noteVersions } from '../../db/schema.js';
import { multipartBody } from '../../files/multipartBody.js';
import { chart, doc, heading, paragraph, table } from '../../seed/demoContent.js';
import { demoGelPng } from '../../seed/demoImage.js';
import { initialUpdate } from '../../seed/demoTemplates.js';
import type { NewUser, TestServer } from '../../testing/harness.js';
import { appendParagraph, connectWriter, eventually } from '../../testing/live.js';

/**
 * A project to print, made through the real API as people would: a note in Korean, Japanese and English
 * with a table and its chart, saved twice and signed by a reviewer (Seoul) and a participant (Tokyo); a
 * note with a photographed gel, one signature declined and one still requested; a signed note whose
 * stored version is then changed behind the server's back; and a note never saved.
 */

export type Person = NewUser & { userNo: number; token: string };

export const TEXT = {
  korean: '시료 A의 흡광도는 0.42였고, 반복 측정에서도 같은 값을 얻었다.',
  japanese: '試料Bの吸光度は1.06で、再測定でも同じ値が得られた。',
  english: 'Sample C read 0.71 after the second incubation.',
  second: 'Second run added after calibration.',
  tampered: 'Original measurement: 42 mg of product.',
  forged: 'Original measurement: 48 mg of product.',
  gelComment: 'Please repeat the gel with a fresh ladder.',
  chartName: '흡광도 (Absorbance)',
  chartTableCell: '1,058.5',
} as const;

const CHART_TABLE = 'tpdfchart0000001';

export interface PdfFixture {
  projectNo: number;
  projectTitle: string;
  leader: Person;
  writer: Person;
  reviewer: Person;
  participant: Person;
  decliner: Person;
  pending: Person;
  /** In project order. */
  notes: { multilingual: number; gel: number; tampered: number; draft: number };
}

async function person(server: TestServer, name: string): Promise<Person> {
  const user = await server.createUser({ name });
  const { accessToken } = await server.signIn(user.userId, user.password);
  return { ...user, token: accessToken };
}

async function call<C extends CallSpec>(server: TestServer, who: Person, spec: C, body: CallInput<C>): Promise<CallAnswer<C>> {
  const result = await server.call(spec, body, { token: who.token });
  if (result.body.status !== '0000') throw new Error(`${spec.path}: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

async function createNote(server: TestServer, writer: Person, projectNo: number, title: string, content: PmNode | null): Promise<number> {
  const { labNoteNo } = await call(server, writer, api.notes.create, { projectNo, title });
  if (content) {
    await server.database.db.insert(documentUpdates).values({ documentName: noteDocumentName(labNoteNo), update: initialUpdate(content) });
    await call(server, writer, api.notes.saveVersion, { labNoteNo, version: 0, blockList: [] });
  }
  return labNoteNo;
}

const requestSignatures = (server: TestServer, writer: Person, labNoteNo: number, signers: Array<[Person, 'reviewer' | 'participant']>) =>
  call(server, writer, api.signatures.request, {
    labNoteNo,
    signers: signers.map(([who, type]) => ({ userId: who.userId, type })),
  });

const answer = (server: TestServer, who: Person, labNoteNo: number, status: 'T' | 'F', name: string, timeZone: string, description = '') =>
  call(server, who, api.signatures.respond, { labNoteNo, status, password: who.password, name, timeZone, description });

async function upload(server: TestServer, who: Person, labNoteNo: number): Promise<string> {
  const { payload, contentType } = multipartBody({ labNoteNo: String(labNoteNo) }, { name: 'gel.png', content: demoGelPng() });
  const response = await server.app.inject({
    method: 'POST',
    url: `/server${api.files.upload.path}`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${who.token}` },
  });
  const body = response.json<ApiResponse<UploadAnswer>>();
  if (body.status !== '0000') throw new Error(`upload: ${JSON.stringify(body)}`);
  return body.data.fileId;
}

/** A saved version's blocks changed in the database, as someone with database access might. */
export async function tamperWithVersion(server: TestServer, labNoteNo: number, version: number, from: string, to: string): Promise<void> {
  const db = server.database.db;
  const [row] = await db
    .select()
    .from(noteVersions)
    .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, version)));
  if (!row) throw new Error(`note ${labNoteNo} has no version ${version}`);
  const json = JSON.stringify(row.blocks);
  if (!json.includes(from)) throw new Error(`version ${version} of note ${labNoteNo} does not contain "${from}"`);
  await db
    .update(noteVersions)
    .set({ blocks: JSON.parse(json.replace(from, to)) as typeof row.blocks })
    .where(and(eq(noteVersions.noteNo, labNoteNo), eq(noteVersions.version, version)));
}

export async function buildPdfFixture(server: TestServer, baseUrl: string): Promise<PdfFixture> {
  const [leader, writer, reviewer, participant, decliner, pending] = (await Promise.all(
    ['Leader Lee', 'Writer Woo', '박지민', '田中 陽子', 'Emma Wilson', 'Pending Park'].map((name) => person(server, name)),
  )) as [Person, Person, Person, Person, Person, Person];
  const projectTitle = '다국어 흡광도 프로젝트';
  const { projectNo } = await call(server, leader, api.projects.create, {
    title: projectTitle,
    description: 'Absorbance of three samples, written in Korean, Japanese and English.',
    signatureList: { department: '', user: [writer, reviewer, participant, decliner, pending].map((p) => p.userId).join(',') },
  });

  const multilingual = await createNote(
    server,
    writer,
    projectNo,
    '흡광도 측정 · 吸光度の測定',
    doc(
      heading('측정 조건'),
      paragraph(TEXT.korean),
      paragraph(TEXT.japanese),
      paragraph(TEXT.english),
      table(
        CHART_TABLE,
        ['Sample', 'OD 600'],
        [
          ['A', '0.42'],
          ['B', TEXT.chartTableCell],
          ['C', '0.71'],
        ],
      ),
      chart(CHART_TABLE, {
        name: TEXT.chartName,
        label: 'Figure 1',
        xLabel: 'Sample',
        yLabel: 'OD',
        dataName: 'OD 600',
        from: { row: 1, col: 0 },
        to: { row: 3, col: 1 },
      }),
    ),
  );
  // A second version, typed in the live editor as a writer would.
  const editor = await connectWriter(baseUrl, noteDocumentName(multilingual), writer.token);
  try {
    appendParagraph(editor.doc, TEXT.second);
    await eventually(() => editor.allDurable(), 'second version durable');
    await call(server, writer, api.notes.saveVersion, { labNoteNo: multilingual, version: 1, blockList: [] });
  } finally {
    editor.destroy();
  }
  await requestSignatures(server, writer, multilingual, [
    [reviewer, 'reviewer'],
    [participant, 'participant'],
  ]);
  await answer(server, reviewer, multilingual, 'T', '박지민 (검토)', 'Asia/Seoul', '측정값을 원자료와 대조했습니다.');
  await answer(server, participant, multilingual, 'T', '田中 陽子', 'Asia/Tokyo');

  const gelNote = await createNote(server, writer, projectNo, 'Gel photo', null);
  const fileId = await upload(server, writer, gelNote);
  await server.database.db.insert(documentUpdates).values({
    documentName: noteDocumentName(gelNote),
    update: initialUpdate(
      doc(
        heading('Gel 1'),
        { type: 'image', attrs: { blockUid: 'ipdfgel000000001', fileId, title: 'Gel 1 · ladder, WT, clones' } },
        paragraph('Clone 11 goes forward.'),
      ),
    ),
  });
  await call(server, writer, api.notes.saveVersion, { labNoteNo: gelNote, version: 0, blockList: [] });
  await requestSignatures(server, writer, gelNote, [
    [decliner, 'reviewer'],
    [pending, 'participant'],
  ]);
  await answer(server, decliner, gelNote, 'F', 'Emma Wilson', 'America/New_York', TEXT.gelComment);

  const tampered = await createNote(server, writer, projectNo, 'Yield', doc(heading('Yield'), paragraph(TEXT.tampered)));
  await requestSignatures(server, writer, tampered, [[reviewer, 'reviewer']]);
  await answer(server, reviewer, tampered, 'T', '박지민 (검토)', 'Asia/Seoul');

  const draft = await createNote(server, writer, projectNo, 'Draft only', null);
  return {
    projectNo,
    projectTitle,
    leader,
    writer,
    reviewer,
    participant,
    decliner,
    pending,
    notes: { multilingual, gel: gelNote, tampered, draft },
  };
}
