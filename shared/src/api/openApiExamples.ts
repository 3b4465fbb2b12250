/*
 * Examples of the main calls a script makes, shown in the API reference beside each call's schemas.
 * Keyed by `<group>.<call>` of the route table; openApi.test.ts checks each request against the call's
 * request schema and each answer against its answer schema, so they cannot drift from the table.
 */

interface CallExample {
  request: unknown;
  answer?: unknown;
}

const LAB_NOTE_NO = 1234;

export const OPENAPI_EXAMPLES: Readonly<Record<string, CallExample>> = {
  'auth.signIn': { request: { userId: 'kim@lab.example', password: 'correct horse battery staple' } },
  'projects.list': { request: { status: 'ING' } },
  'notes.create': {
    request: { projectNo: 12, title: 'Plate reader run 7' },
    answer: { labNoteNo: LAB_NOTE_NO, labNoteNumber: 'LN-2026-0042' },
  },
  'notes.appendBlock': {
    request: { labNoteNo: LAB_NOTE_NO, table: 'well,OD450\nA1,0.512\nA2,1.204\n', headerRow: true },
    answer: { blockUid: 'k3v9x2m1q8w7e6r5', type: 'table', rows: 3, columns: 2 },
  },
  'notes.blockList': { request: { labNoteNo: LAB_NOTE_NO } },
  'notes.viewer': { request: { labNoteNo: LAB_NOTE_NO } },
  'notes.saveVersion': { request: { labNoteNo: LAB_NOTE_NO, version: 3, blockList: [] } },
  'noteHistory.list': { request: { labNoteNo: LAB_NOTE_NO } },
  'noteHistory.detail': { request: { labNoteNo: LAB_NOTE_NO, version: 2 } },
  'files.upload': {
    request: { labNoteNo: String(LAB_NOTE_NO) },
    answer: {
      fileId: '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
      url: '/server/v1/common/file/download/6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f?expires=1767225600&signature=…',
      origin: 'run7.xlsx',
      kind: 'file',
      extension: 'xlsx',
      size: 48213,
    },
  },
};
