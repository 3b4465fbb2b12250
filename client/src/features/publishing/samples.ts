import {
  api,
  ERR,
  errorMessage,
  type AdminTokenRecord,
  type AdminUserRow,
  type AuthFlags,
  type AuthFlagsAnswer,
  type CompanyDepartments,
  type DashboardCounts,
  type DepartmentRow,
  type DepartmentSearchAnswer,
  type DepartmentSearchGroup,
  type ExportJob,
  type InboxAnswer,
  type InboxRequest,
  type LicenceInfoAnswer,
  type MailListAnswer,
  type ListAnswer,
  type NoteSummary,
  type NotificationItem,
  type NotificationListAnswer,
  type ProjectDetail,
  type ProjectEditorAnswer,
  type ProjectRow,
  type SchemaListAnswer,
  type SessionAbilities,
  type SignatureEntry,
  type SystemInfo,
  type TokenSettings,
} from '@eln/shared';
import { ApiError } from '../../api/errors';
import { currentLanguage } from '../../i18n';
import type { Session } from '../../session/model';
import type { StyleGuideSamples } from '../../lib/styleGuide';

/*
 * The style guide's fixed data: a small research company as the screens would show it. Nothing here
 * is random or dated by the clock, so every screenshot of the guide is the same.
 */

const ALL: AuthFlags = { project: 'Y', schema: 'Y', dropbox: 'Y', template: 'Y' };
const MEMBER: AuthFlags = { project: 'Y', schema: 'N', dropbox: 'N', template: 'Y' };
/** What the guide's sample user, an administrator with every flag, may do. */
const ABILITIES: SessionAbilities = { administer: true, createProject: true };

const PEOPLE = [
  { userNo: 1, userId: 'admin@lab.example', name: 'Park Seoyeon', department: 'RND', level: 10, auth: ALL },
  { userNo: 2, userId: 'kim.jiwoo@lab.example', name: 'Kim Jiwoo', department: 'CHEM', level: 1, auth: MEMBER },
  { userNo: 3, userId: 'lee.minho@lab.example', name: 'Lee Minho', department: 'CHEM', level: 1, auth: MEMBER },
  { userNo: 4, userId: 'sato.haruka@lab.example', name: 'Sato Haruka', department: 'BIO', level: 1, auth: ALL },
  { userNo: 5, userId: 'choi.yuna@lab.example', name: 'Choi Yuna', department: 'BIO', level: 1, auth: MEMBER },
  { userNo: 6, userId: 'jung.daeho@lab.example', name: 'Jung Daeho', department: 'QA', level: 1, auth: MEMBER },
  { userNo: 7, userId: 'tanaka.ren@lab.example', name: 'Tanaka Ren', department: 'QA', level: 1, auth: MEMBER },
  { userNo: 8, userId: 'han.soojin@lab.example', name: 'Han Soojin', department: null, level: 1, auth: MEMBER },
] as const;

const DEPARTMENTS: DepartmentRow[] = [
  { code: 'RND', name: 'Research & Development', parentCode: null, userCount: 1, source: 'local', missingSince: null },
  { code: 'CHEM', name: 'Chemistry', parentCode: 'RND', userCount: 2, source: 'local', missingSince: null },
  { code: 'BIO', name: 'Cell Biology', parentCode: 'RND', userCount: 2, source: 'local', missingSince: null },
  { code: 'QA', name: 'Quality Assurance', parentCode: null, userCount: 2, source: 'local', missingSince: null },
];

const departmentName = (code: string | null) => DEPARTMENTS.find((d) => d.code === code)?.name ?? null;
const person = (userNo: number) => PEOPLE.find((p) => p.userNo === userNo)!;
const at = (day: number, hour = 9) => new Date(Date.UTC(2026, 10, day, hour, 30)).toISOString();

export const SAMPLE_SESSION: Session = {
  accessToken: 'style-guide',
  expiresAt: Number.MAX_SAFE_INTEGER,
  user: { userId: PEOPLE[0].userId, name: PEOPLE[0].name, level: 10 },
  abilities: ABILITIES,
};

const COUNTS: DashboardCounts = { ongoing: 12, closable: 3, closed: 41, templates: 8, schemas: 5, dropboxes: 6 };

const PROJECT_TITLES = [
  ['Buffer stability at 37 °C', 'Tris and HEPES buffers over four weeks'],
  ['Kinase inhibitor screen', 'IC50 of 24 compounds against CDK2'],
  ['MTT viability, HeLa', 'Dose response of cisplatin, triplicates'],
  ['Column regeneration', 'Capacity of Ni-NTA after each cycle'],
  ['Enzyme kinetics, batch 7', 'Km and Vmax of the new lot'],
  ['Stability of reference standards', 'Quarterly check, ICH conditions'],
  ['Western blot optimisation', 'Transfer times and blocking buffers'],
  ['Solvent recovery audit', 'Rotary evaporator logs, Q4'],
] as const;

// The sample person leads no webhooks: the style guide shows no section that would call the server for its list.
const abilities = (open: boolean) => ({ modify: open, finish: open, createNote: open, clearHolds: open, export: true, webhooks: false });

const PROJECTS: ProjectRow[] = PROJECT_TITLES.map(([title, description], i) => {
  const leader = person([1, 2, 4, 2, 3, 6, 5, 7][i]!);
  const open = i !== 5 && i !== 7;
  return {
    no: 108 - i,
    title,
    description,
    status: open ? 'ING' : 'C',
    userId: leader.userId,
    leaderName: leader.name,
    department: departmentName(leader.department),
    participantCount: 2 + (i % 4),
    createdAt: at(20 - i * 2),
    updatedAt: at(25 - i),
    abilities: abilities(open),
  };
});

const participants = [2, 3, 4].map((n) => ({
  userNo: n,
  userId: person(n).userId,
  name: person(n).name,
  departmentCode: person(n).department,
  departmentName: departmentName(person(n).department),
}));

const PROJECT: ProjectDetail = {
  finishBlockedBy: null,
  no: 108,
  title: PROJECT_TITLES[0][0],
  description: PROJECT_TITLES[0][1],
  status: 'ING',
  userId: PEOPLE[0].userId,
  leaderName: PEOPLE[0].name,
  signatureList: { department: 'CHEM', user: participants.map((p) => p.userId).join(',') },
  participants,
  members: [
    { userNo: 1, userId: PEOPLE[0].userId, name: PEOPLE[0].name, departmentCode: 'RND', departmentName: departmentName('RND') },
    ...participants,
  ],
  departments: [{ code: 'CHEM', name: 'Chemistry' }],
  createdAt: at(2),
  updatedAt: at(24),
  abilities: abilities(true),
};

const signature = (id: number, userNo: number, type: SignatureEntry['type'], signed: boolean): SignatureEntry => ({
  signatureId: id,
  userId: person(userNo).userId,
  name: person(userNo).name,
  type,
  status: signed ? 'T' : 'R',
  signatureName: signed ? person(userNo).name : null,
  description: null,
  signedAt: signed ? at(24, 15) : null,
  timeZone: signed ? 'Asia/Seoul' : null,
  signedVersion: signed ? 3 : null,
  intact: signed ? true : null,
  timestamp: signed ? { status: 'stamped', genTime: at(24, 15), authority: 'Lab TSA' } : null,
});

const note = (
  no: number,
  title: string,
  status: NoteSummary['status'],
  writerNo: number,
  signatures: SignatureEntry[],
  day: number,
): NoteSummary => ({
  no,
  projectNo: 108,
  title,
  labNoteNumber: `LN-2026-${String(no).padStart(6, '0')}`,
  version: status === 'W' ? 1 : 3,
  status,
  writer: person(writerNo).userId,
  name: person(writerNo).name,
  importedAuthors: null,
  createdAt: at(day),
  updatedAt: at(day + 1, 14),
  modifiers: status === 'W' ? [{ userId: person(3).userId, name: person(3).name }] : [],
  signatureList: signatures,
  reviewersExcluded: [person(writerNo).userId],
  template: null,
  abilities: {
    write: status === 'W',
    delete: status === 'W',
    requestSignatures: status !== 'T',
    sign: false,
    removeSignatures: status === 'T',
    exportPdf: true,
  },
});

const NOTES: NoteSummary[] = [
  note(412, 'Week 4 readings', 'W', 2, [], 22),
  note(398, 'Week 3 readings', 'R', 3, [signature(31, 4, 'reviewer', false)], 15),
  note(377, 'Preparation of buffers', 'T', 2, [signature(22, 4, 'reviewer', true), signature(23, 3, 'participant', true)], 8),
];

const ADMIN_USERS: AdminUserRow[] = PEOPLE.map((p, i) => ({
  userNo: p.userNo,
  userId: p.userId,
  email: p.userId,
  name: p.name,
  employeeNo: `E-${String(2019 + (i % 6))}-${String(100 + p.userNo * 7)}`,
  phone: `010-${String(2000 + p.userNo * 111).slice(0, 4)}-${String(5000 + p.userNo * 37)}`,
  departmentCode: p.department,
  departmentName: departmentName(p.department),
  level: p.level,
  auth: p.auth,
  active: p.userNo !== 8,
  createdAt: at(1 + i),
}));

const tree = (parent: string | null): CompanyDepartments['children'] =>
  DEPARTMENTS.filter((d) => d.parentCode === parent).map((d) => ({
    code: d.code,
    name: d.name,
    userCount: PEOPLE.filter((p) => p.department === d.code).length,
    children: tree(d.code),
  }));

/** The sample people a search asks for: by word, and by departments (or none) when it names them; one page. */
function searchGroups(body: Record<string, unknown>): DepartmentSearchGroup[] {
  const needle = typeof body.value === 'string' ? body.value.trim().toLowerCase() : '';
  const codes = Array.isArray(body.departmentCodes) ? (body.departmentCodes as string[]) : null;
  const groups = new Map<string | null, DepartmentSearchGroup>();
  for (const p of PEOPLE) {
    if (needle && !p.name.toLowerCase().includes(needle) && !p.userId.includes(needle)) continue;
    if (codes && !codes.includes(p.department ?? '')) continue;
    if (body.noDepartment === true && p.department !== null) continue;
    const group = groups.get(p.department) ?? { code: p.department, name: departmentName(p.department), children: [] };
    group.children.push({ departmentCode: p.department, userNo: p.userNo, userId: p.userId, name: p.name, ...p.auth });
    groups.set(p.department, group);
  }
  return [...groups.values()];
}

const SYSTEM: SystemInfo = { mainHosts: [], mainCompanyCode: 'LAB', otherCompanyCode: 'LAB' };

const LICENCE: LicenceInfoAnswer = {
  licence: {
    status: 'valid',
    companyName: 'Hanbit Life Sciences',
    serialNumber: 'ELN-2026-0042-7Q3K',
    seats: 50,
    issuedAt: at(1),
    startsAt: at(1),
    expiresAt: new Date(Date.UTC(2027, 10, 1)).toISOString(),
    maxVersion: '1.x',
    keyId: 'style-guide',
    updatedAt: at(1),
  },
  activeUsers: 7,
};

/** The project screen's export panel: a finished PDF and an archive on its way. */
const EXPORT_JOBS: ExportJob[] = [
  {
    jobId: '00000000-0000-4000-8000-000000000002',
    format: 'eln',
    status: 'running',
    progress: 64,
    projectNo: PROJECT.no,
    projectTitle: PROJECT.title,
    startDate: null,
    endDate: null,
    pdfA: false,
    changes: false,
    comments: false,
    noteNo: null,
    labNoteNumber: null,
    version: null,
    requestedBy: { userId: PEOPLE[0].userId, name: PEOPLE[0].name },
    createdAt: at(2),
    finishedAt: null,
    fileName: null,
    size: null,
    sha256: null,
    errorCode: null,
    downloadable: false,
    timestamp: null,
  },
  {
    jobId: '00000000-0000-4000-8000-000000000001',
    format: 'pdf',
    status: 'done',
    progress: 100,
    projectNo: PROJECT.no,
    projectTitle: PROJECT.title,
    startDate: null,
    endDate: null,
    pdfA: false,
    changes: false,
    comments: false,
    noteNo: null,
    labNoteNumber: null,
    version: null,
    requestedBy: { userId: PEOPLE[0].userId, name: PEOPLE[0].name },
    createdAt: at(1),
    finishedAt: at(1),
    fileName: `${PROJECT.title}-2026-11-26.pdf`,
    size: 1_482_113,
    sha256: '3f6c9a1e0b7d4c2a8e5f9b1d3c7a6e4f2b8d0c9e1a3f5b7d9c2e4a6f8b0d1c3e',
    errorCode: null,
    // The guide downloads nothing.
    downloadable: false,
    timestamp: { status: 'stamped', genTime: at(1), authority: 'DigiCert Timestamp 2025' },
  },
];

/** The user list's card of mails not delivered: one the mail server refused for good. */
const FAILED_MAILS: MailListAnswer['list'] = [
  {
    mailId: 17,
    kind: 'notification',
    status: 'failed',
    recipient: { userNo: 3, userId: person(3).userId, name: person(3).name, active: true },
    event: 'signatureRequested',
    notificationCount: 1,
    attempts: 1,
    lastError: '550 5.1.1 mailbox unavailable',
    createdAt: at(26, 14),
    nextAttemptAt: null,
    sentAt: null,
    abilities: { retry: true },
  },
];

/** The administrators' card of personal access tokens: an instrument's token in use, and one revoked. */
const ACCESS_TOKENS: AdminTokenRecord[] = [
  {
    tokenId: '6f1c2a9e-8d4b-4e57-9a31-0c2b7d5e4f10',
    name: 'HPLC export',
    prefix: 'eln_pat_Q7rX',
    scopes: ['read', 'write'],
    createdAt: at(2, 10),
    expiresAt: '2027-11-02T10:30:00.000Z',
    revokedAt: null,
    state: 'active',
    lastUsedAt: at(26, 16),
    lastUsedFrom: '10.20.4.17',
    userId: person(3).userId,
    userName: person(3).name,
    userLevel: 1,
  },
  {
    tokenId: '0b8e5d21-3c7f-4a62-8e19-5d4a2f6c7b93',
    name: 'Balance reader',
    prefix: 'eln_pat_m2Kd',
    scopes: ['read'],
    createdAt: at(4, 11),
    expiresAt: '2027-05-04T11:30:00.000Z',
    revokedAt: at(20, 15),
    state: 'revoked',
    lastUsedAt: at(19, 8),
    lastUsedFrom: '10.20.4.52',
    userId: person(5).userId,
    userName: person(5).name,
    userLevel: 1,
  },
];

/** The bell's notifications: two unread, as a member of the sample project would find them. */
const NOTIFICATION_BASE = {
  actorName: null,
  note: null,
  project: null,
  template: null,
  meaning: null,
  reason: null,
  declined: false,
  version: null,
  file: null,
  count: null,
  excerpt: null,
} as const;
const NOTIFICATIONS: NotificationItem[] = [
  {
    ...NOTIFICATION_BASE,
    id: 4,
    event: 'signatureRequested',
    actorName: PEOPLE[1].name,
    note: { labNoteNo: 398, labNoteNumber: 'LN-2026-000398', title: 'Week 3 readings' },
    project: { projectNo: PROJECT.no, title: PROJECT.title },
    meaning: 'reviewer',
    createdAt: at(26, 14),
    read: false,
    link: '/note/398',
  },
  {
    ...NOTIFICATION_BASE,
    id: 3,
    event: 'signatureRemoved',
    actorName: PEOPLE[3].name,
    note: { labNoteNo: 412, labNoteNumber: 'LN-2026-000412', title: 'Week 4 readings' },
    project: { projectNo: PROJECT.no, title: PROJECT.title },
    meaning: 'participant',
    declined: true,
    reason: 'The plate map is missing',
    createdAt: at(25, 16),
    read: false,
    link: '/note/412',
  },
  {
    ...NOTIFICATION_BASE,
    id: 2,
    event: 'noteSigned',
    actorName: PEOPLE[3].name,
    note: { labNoteNo: 377, labNoteNumber: 'LN-2026-000377', title: 'Preparation of buffers' },
    project: { projectNo: PROJECT.no, title: PROJECT.title },
    meaning: 'reviewer',
    createdAt: at(8, 11),
    read: true,
    link: '/note/377',
  },
  {
    ...NOTIFICATION_BASE,
    id: 1,
    event: 'exportFinished',
    file: `${PROJECT.title}-2026-11-26.pdf`,
    createdAt: at(1),
    read: true,
    link: '/admin/download',
  },
];
const NOTE_REF = (n: NoteSummary) => ({ labNoteNo: n.no, labNoteNumber: n.labNoteNumber, title: n.title });
const PROJECT_REF = { projectNo: PROJECT.no, title: PROJECT.title };
const by = (userNo: number) => ({ userId: person(userNo).userId, name: person(userNo).name });

/** The home's sections (`/v1/inbox`): what waits for the sample administrator, their notes, what they opened, the news. */
function homeSection(body: Record<string, unknown>): InboxAnswer {
  const [week4, week3, buffers] = NOTES as [NoteSummary, NoteSummary, NoteSummary];
  switch (body.section as InboxRequest['section']) {
    case 'signatures':
      return {
        section: 'signatures',
        totalCount: 2,
        list: [
          {
            kind: 'request',
            signatureId: 41,
            note: NOTE_REF(week3),
            project: PROJECT_REF,
            meaning: 'reviewer',
            by: by(3),
            at: at(25, 8),
            reason: null,
            path: `/note/${week3.no}`,
          },
          {
            kind: 'declined',
            signatureId: 37,
            note: NOTE_REF(week4),
            project: PROJECT_REF,
            meaning: 'participant',
            by: by(4),
            at: at(24, 16),
            reason: 'The control wells are missing from the plate map.',
            path: `/note/${week4.no}`,
          },
        ],
      };
    case 'templates':
      return {
        section: 'templates',
        totalCount: 1,
        list: [
          {
            kind: 'approve',
            templateNo: 14,
            title: 'Western blot, standard',
            revision: 3,
            by: by(5),
            at: at(24, 11),
            reason: null,
            path: '/template/note/14',
          },
        ],
      };
    case 'notes':
      return {
        section: 'notes',
        totalCount: 2,
        list: [
          {
            note: NOTE_REF(week4),
            project: PROJECT_REF,
            status: 'W',
            version: 1,
            unsaved: 'changedSinceSave',
            pendingSignatures: 0,
            changedAt: at(25, 7),
            path: `/note/${week4.no}`,
          },
          {
            note: NOTE_REF(week3),
            project: PROJECT_REF,
            status: 'R',
            version: 3,
            unsaved: null,
            pendingSignatures: 1,
            changedAt: at(23, 10),
            path: `/note/${week3.no}`,
          },
        ],
      };
    case 'recent':
      return {
        section: 'recent',
        list: [
          {
            kind: 'note',
            no: week4.no,
            title: week4.title,
            number: week4.labNoteNumber,
            projectTitle: PROJECT.title,
            openedAt: at(25, 7),
            path: `/note/${week4.no}`,
          },
          {
            kind: 'template',
            no: 14,
            title: 'Western blot, standard',
            number: null,
            projectTitle: null,
            openedAt: at(24, 11),
            path: '/template/note/14',
          },
          { kind: 'schema', no: 3, title: 'Reagents', number: null, projectTitle: null, openedAt: at(23, 15), path: '/schema/3' },
          {
            kind: 'note',
            no: buffers.no,
            title: buffers.title,
            number: buffers.labNoteNumber,
            projectTitle: PROJECT.title,
            openedAt: at(22, 9),
            path: `/note/${buffers.no}`,
          },
        ],
      };
    case 'activity':
    default: {
      const event = { actor: null, note: null, project: null, template: null, version: null, meaning: null, signer: null, reason: null };
      return {
        section: 'activity',
        next: null,
        list: [
          {
            ...event,
            seq: 906,
            event: 'versionSaved',
            at: at(25, 7),
            actor: person(2).name,
            note: NOTE_REF(week4),
            project: PROJECT_REF,
            version: '2',
            path: `/note/${week4.no}`,
          },
          {
            ...event,
            seq: 901,
            event: 'signatureGiven',
            at: at(24, 15),
            actor: person(4).name,
            note: NOTE_REF(buffers),
            project: PROJECT_REF,
            version: '3',
            meaning: 'reviewer',
            path: `/note/${buffers.no}`,
          },
          {
            ...event,
            seq: 884,
            event: 'templateApproved',
            at: at(23, 13),
            actor: person(4).name,
            template: { templateNo: 12, title: 'MTT assay' },
            version: '2.1',
            path: '/template/note/12',
          },
          {
            ...event,
            seq: 871,
            event: 'noteCreated',
            at: at(22, 9),
            actor: person(2).name,
            note: NOTE_REF(week4),
            project: PROJECT_REF,
            path: `/note/${week4.no}`,
          },
          {
            ...event,
            seq: 850,
            event: 'signatureRemoved',
            at: at(21, 17),
            actor: person(1).name,
            note: NOTE_REF(week3),
            project: PROJECT_REF,
            meaning: 'participant',
            signer: person(6).name,
            reason: 'Signed before the last readings were added.',
            path: `/note/${week3.no}`,
          },
          {
            ...event,
            seq: 832,
            event: 'projectClosed',
            at: at(20, 18),
            actor: person(6).name,
            project: { projectNo: 103, title: PROJECT_TITLES[5][0] },
            path: '/project/103',
          },
        ],
      };
    }
  }
}

/** The answer of each call the guide's screens make, by path. */
const ANSWERS: Record<string, (body: Record<string, unknown>) => unknown> = {
  [api.dashboard.counts.path]: () => COUNTS,
  [api.inbox.section.path]: homeSection,
  [api.projects.list.path]: (): ListAnswer<ProjectRow> => ({ list: PROJECTS, totalCount: 57 }),
  [api.projects.detail.path]: () => PROJECT,
  [api.projects.editor.path]: (): ProjectEditorAnswer => ({ info: PROJECT, list: NOTES }),
  [api.system.info.path]: () => SYSTEM,
  [api.departments.companyTree.path]: (): { list: CompanyDepartments[] } => ({
    list: [
      {
        companyCode: 'LAB',
        companyName: 'Hanbit Life Sciences',
        children: tree(null),
        unassignedUserCount: PEOPLE.filter((p) => p.department === null).length,
      },
    ],
  }),
  [api.departments.searchUsers.path]: (body): DepartmentSearchAnswer => ({ list: searchGroups(body), next: null }),
  [api.departments.list.path]: () => ({ list: DEPARTMENTS }),
  [api.users.list.path]: (): ListAnswer<AdminUserRow> => ({ list: ADMIN_USERS, totalCount: ADMIN_USERS.length }),
  [api.tokens.adminList.path]: (): ListAnswer<AdminTokenRecord> => ({ list: ACCESS_TOKENS, totalCount: ACCESS_TOKENS.length }),
  [api.tokens.settings.path]: (): TokenSettings => ({ forbiddenLevels: [] }),
  [api.mail.list.path]: (): MailListAnswer => ({ list: FAILED_MAILS, totalCount: FAILED_MAILS.length, failedCount: FAILED_MAILS.length }),
  [api.users.detail.path]: () => ADMIN_USERS[1],
  [api.auth.flags.path]: (): AuthFlagsAnswer => ({ ...ALL, abilities: ABILITIES }),
  [api.licence.info.path]: () => LICENCE,
  [api.schemas.list.path]: (): SchemaListAnswer => ({ list: [], totalCount: 0, abilities: { create: true } }),
  [api.exports.list.path]: (): ListAnswer<ExportJob> => ({ list: EXPORT_JOBS, totalCount: EXPORT_JOBS.length }),
  [api.notifications.list.path]: (body): NotificationListAnswer => {
    const list = body.unreadOnly === true ? NOTIFICATIONS.filter((n) => !n.read) : NOTIFICATIONS;
    return { list, totalCount: list.length, unreadCount: NOTIFICATIONS.filter((n) => !n.read).length };
  },
};

export const STYLE_GUIDE_SAMPLES: StyleGuideSamples = {
  session: SAMPLE_SESSION,
  answer(path, body) {
    const answer = ANSWERS[path];
    // Anything else would change data: the guide shows, it does not change.
    if (!answer) throw new ApiError(ERR.forbidden, errorMessage(ERR.forbidden, currentLanguage()), 403);
    return answer(typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {});
  },
};

/** Record numbers the guide's detail screens show. */
export const SAMPLE_RECORDS = { projectNo: PROJECT.no, userNo: ADMIN_USERS[1]!.userNo } as const;
