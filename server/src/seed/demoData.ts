import { and, eq, isNull } from 'drizzle-orm';
import {
  api,
  API_BASE,
  AUDIT_SYSTEM_REASONS,
  docToBlocks,
  noteDocumentName,
  templateDocumentName,
  type AdminUserCreate,
  type CallAnswer,
  type CallInput,
  type CallSpec,
  type NoteType,
  type PmNode,
  type ProjectCreate,
} from '@eln/shared';
import type { App } from '../app.js';
import { appendAudit } from '../audit/audit.js';
import { createSession, revokeSession } from '../auth/sessions.js';
import { contentOfState } from '../collab/commands/liveDocuments.js';
import type { Db } from '../db/client.js';
import { departments, documentUpdates, labNotes, projects, templates, users } from '../db/schema.js';
import { multipartBody } from '../files/multipartBody.js';
import { administratorsSql } from '../users/policy.js';
import { DEMO_IMAGE_FILE } from './demoContent.js';
import { demoGelPng } from './demoImage.js';
import { DEMO_NOTES } from './demoNotes.js';
import { DEMO_TEMPLATES, initialUpdate } from './demoTemplates.js';
import { seedLibraries, userNoOf, withDemoCatalogues, type CallAs } from './demoLibraries.js';

/**
 * A believable demo company to look around in. Everything goes through the real API as the
 * administrator or the project leaders, so the audit trail tells the story. Running it again adds only
 * what is missing.
 */
export const DEMO_PASSWORD = 'demo-password-2026';

export const DEMO_DEPARTMENTS = [
  { code: 'RND', name: '연구개발본부 R&D' },
  { code: 'RND-CHEM', name: 'Chemistry', parentCode: 'RND' },
  { code: 'RND-BIO', name: 'Biology', parentCode: 'RND' },
  { code: 'RND-ANA', name: 'Analytics', parentCode: 'RND' },
  { code: 'QA', name: 'Quality Assurance' },
  { code: 'PROD', name: 'Production' },
];

const flags = (project: boolean, schema = false, dropbox = false, template = false) =>
  ({
    project: project ? 'Y' : 'N',
    schema: schema ? 'Y' : 'N',
    dropbox: dropbox ? 'Y' : 'N',
    template: template ? 'Y' : 'N',
  }) as const;

export const DEMO_USERS: Array<Omit<AdminUserCreate, 'password'>> = [
  {
    userId: 'jiwoo.kim@demo.eln',
    name: '김지우 Kim Jiwoo',
    employeeNo: 'E-1001',
    phone: '010-1001-2001',
    departmentCode: 'RND-CHEM',
    level: 5,
    auth: flags(true, true, true, true),
  },
  {
    userId: 'seoyeon.lee@demo.eln',
    name: '이서연 Lee Seoyeon',
    employeeNo: 'E-1002',
    phone: '010-1002-2002',
    departmentCode: 'RND-CHEM',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'minho.park@demo.eln',
    name: '박민호 Park Minho',
    employeeNo: 'E-1003',
    phone: '010-1003-2003',
    departmentCode: 'RND-CHEM',
    level: 1,
    auth: flags(false, false, true),
  },
  {
    userId: 'hana.choi@demo.eln',
    name: '최하나 Choi Hana',
    employeeNo: 'E-1004',
    phone: '010-1004-2004',
    departmentCode: 'RND-BIO',
    level: 5,
    auth: flags(true, false, false, true),
  },
  {
    userId: 'junho.jung@demo.eln',
    name: '정준호 Jung Junho',
    employeeNo: 'E-1005',
    phone: '010-1005-2005',
    departmentCode: 'RND-BIO',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'yuna.kang@demo.eln',
    name: '강유나 Kang Yuna',
    employeeNo: 'E-1006',
    phone: '010-1006-2006',
    departmentCode: 'RND-BIO',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'haruto.sato@demo.eln',
    name: '佐藤陽翔 Sato Haruto',
    employeeNo: 'E-1007',
    phone: '02-1007-2007',
    departmentCode: 'RND-ANA',
    level: 5,
    auth: flags(true, true, false, false),
  },
  {
    userId: 'yui.tanaka@demo.eln',
    name: '田中結衣 Tanaka Yui',
    employeeNo: 'E-1008',
    phone: '02-1008-2008',
    departmentCode: 'RND-ANA',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'emma.wilson@demo.eln',
    name: 'Emma Wilson',
    employeeNo: 'E-1009',
    phone: '031-109-2009',
    departmentCode: 'QA',
    level: 5,
    auth: flags(false, true, true, true),
  },
  {
    userId: 'dohyun.yoon@demo.eln',
    name: '윤도현 Yoon Dohyun',
    employeeNo: 'E-1010',
    phone: '031-110-2010',
    departmentCode: 'QA',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'sora.han@demo.eln',
    name: '한소라 Han Sora',
    employeeNo: 'E-1011',
    phone: '032-111-2011',
    departmentCode: 'PROD',
    level: 1,
    auth: flags(false),
  },
  {
    userId: 'taeyang.oh@demo.eln',
    name: '오태양 Oh Taeyang',
    employeeNo: 'E-1012',
    phone: '032-112-2012',
    departmentCode: 'PROD',
    level: 1,
    auth: flags(true),
  },
];

export const DEMO_PROJECTS: Array<{ leader: string; project: ProjectCreate; completed?: boolean }> = [
  {
    leader: 'jiwoo.kim@demo.eln',
    project: {
      title: 'Catalyst screening 2026',
      description: 'Pd-catalysed cross-coupling: ligand and base screening',
      signatureList: { department: 'RND-CHEM', user: 'seoyeon.lee@demo.eln,minho.park@demo.eln' },
    },
  },
  {
    leader: 'jiwoo.kim@demo.eln',
    project: {
      title: 'Polymer stability',
      description: 'Accelerated ageing of PET films at 60 °C',
      signatureList: { department: 'RND-CHEM,QA', user: 'minho.park@demo.eln,emma.wilson@demo.eln' },
    },
  },
  {
    leader: 'hana.choi@demo.eln',
    project: {
      title: 'CRISPR knock-out line B7',
      description: 'Guide design, transfection and clone validation',
      signatureList: { department: 'RND-BIO', user: 'junho.jung@demo.eln,yuna.kang@demo.eln' },
    },
  },
  {
    leader: 'hana.choi@demo.eln',
    project: {
      title: 'Cell viability assays',
      description: 'MTT assays for compound series 12',
      signatureList: { department: 'RND-BIO', user: 'yuna.kang@demo.eln' },
    },
  },
  {
    leader: 'haruto.sato@demo.eln',
    project: {
      title: 'HPLC method validation',
      description: 'ICH Q2 validation of the assay method',
      signatureList: { department: 'RND-ANA,QA', user: 'yui.tanaka@demo.eln,dohyun.yoon@demo.eln,emma.wilson@demo.eln' },
    },
  },
  {
    leader: 'taeyang.oh@demo.eln',
    project: {
      title: 'Scale-up batch 42',
      description: 'Transfer of the lab process to the 50 L reactor',
      signatureList: { department: 'PROD', user: 'sora.han@demo.eln,jiwoo.kim@demo.eln' },
    },
    completed: true,
  },
];

/** The content with the demo picture's placeholder replaced by the file `upload` stores (uploaded only if used). */
async function withDemoImage(content: PmNode, upload: () => Promise<string>): Promise<PmNode> {
  const json = JSON.stringify(content);
  if (!json.includes(`"${DEMO_IMAGE_FILE}"`)) return content;
  const fileId = await upload();
  return JSON.parse(json.replaceAll(`"${DEMO_IMAGE_FILE}"`, JSON.stringify(fileId))) as PmNode;
}

/**
 * The block list an editor holding `update` sends at a first save or check-in: its blocks, all new,
 * derived from what the document holds (as the browser's editor derives it), so it matches the server's.
 */
const firstBlockList = (update: Uint8Array, noteType: NoteType) => docToBlocks(contentOfState(update), noteType);

/**
 * The template library: each template written (its content stored as its live document's first update),
 * checked in by its author and approved by another person with their password; then the demo's notes
 * made from them. Answers how many templates and notes it added.
 */
async function seedTemplates(db: Db, as: CallAs): Promise<number> {
  let added = 0;
  for (const template of DEMO_TEMPLATES) {
    let [row] = await db
      .select()
      .from(templates)
      .where(and(eq(templates.title, template.title), isNull(templates.deletedAt)));
    if (!row) {
      const asAuthor = await as(await userNoOf(db, template.author));
      const created = await asAuthor(api.templates.create, { title: template.title, description: template.description });
      const update = initialUpdate(template.content);
      await db.insert(documentUpdates).values({ documentName: templateDocumentName(created.templateNo), update });
      await asAuthor(api.templates.checkIn, { templateNo: created.templateNo, version: 0, blockList: firstBlockList(update, 'TEMPLATE') });
      const asApprover = await as(await userNoOf(db, template.approver));
      await asApprover(api.templates.approve, {
        templateNo: created.templateNo,
        version: template.version,
        revision: 1,
        password: DEMO_PASSWORD,
      });
      [row] = await db.select().from(templates).where(eq(templates.templateNo, created.templateNo));
      added += 1;
    }
    for (const note of template.notes) {
      const [project] = await db.select().from(projects).where(eq(projects.title, note.project));
      if (!project || !row) continue;
      const [exists] = await db
        .select()
        .from(labNotes)
        .where(and(eq(labNotes.projectNo, project.projectNo), eq(labNotes.title, note.title)));
      if (exists) continue;
      const asWriter = await as(await userNoOf(db, note.writer));
      await asWriter(api.notes.create, { projectNo: project.projectNo, title: note.title, templateNo: row.templateNo });
      added += 1;
    }
  }
  return added;
}

/**
 * Notes with content in several states: saved as version 1, then signature requests answered in turn (a
 * decline, then a new request signed) with each signer's password, as people would. Answers how many it added.
 */
async function seedNotes(db: Db, as: CallAs): Promise<number> {
  let added = 0;
  for (const note of DEMO_NOTES) {
    const [project] = await db.select().from(projects).where(eq(projects.title, note.project));
    if (!project) continue;
    const [exists] = await db
      .select()
      .from(labNotes)
      .where(and(eq(labNotes.projectNo, project.projectNo), eq(labNotes.title, note.title)));
    if (exists) continue;
    const asWriter = await as(await userNoOf(db, note.writer));
    const { labNoteNo } = await asWriter(api.notes.create, { projectNo: project.projectNo, title: note.title });
    const content = await withDemoImage(await withDemoCatalogues(db, asWriter, note.content), () =>
      asWriter.upload({ labNoteNo }, 'gel.png', demoGelPng()),
    );
    const update = initialUpdate(content);
    await db.insert(documentUpdates).values({ documentName: noteDocumentName(labNoteNo), update });
    added += 1;
    if (!note.saved) continue;
    await asWriter(api.notes.saveVersion, { labNoteNo, version: 0, blockList: firstBlockList(update, 'LABNOTE') });
    for (const signature of note.signatures) {
      await asWriter(api.signatures.request, { labNoteNo, signers: [{ userId: signature.signer, type: signature.type }] });
      if (!signature.answer) continue;
      const [signer] = await db.select().from(users).where(eq(users.userId, signature.signer));
      if (!signer) throw new Error(`demo signer ${signature.signer} missing`);
      const asSigner = await as(signer.userNo);
      await asSigner(api.signatures.respond, {
        labNoteNo,
        status: signature.answer,
        password: DEMO_PASSWORD,
        name: signer.name.slice(0, 50),
        description: signature.comment ?? '',
        timeZone: 'Asia/Seoul',
      });
    }
    if (note.finishesProject) await (await as(project.leaderUserNo))(api.projects.finish, { projectNo: project.projectNo });
  }
  return added;
}

/** Adds whatever of the demo company is missing; answers how many records it added. */
export async function seedDemo(server: App, db: Db): Promise<number> {
  const seedSessions: string[] = [];
  try {
    const [admin] = await db.select().from(users).where(administratorsSql()).limit(1);
    if (!admin) throw new Error('no administrator found');
    /** Calls the API as a user, through a session opened for the seed. */
    const as = async (userNo: number) => {
      const session = await createSession(db, userNo, { clientAddress: 'seed:demo', userAgent: 'seed:demo' });
      seedSessions.push(session.sessionId);
      const token = server.services.tokens.issueAccessToken(userNo, session.sessionId);
      const answered = (path: string, response: { json<T>(): T }) => {
        const answer = response.json<{ status: string; message: string; data?: unknown }>();
        if (answer.status !== '0000') throw new Error(`${path}: ${answer.status} ${answer.message} ${JSON.stringify(answer.data ?? null)}`);
        return answer.data;
      };
      const call = async <C extends CallSpec>(spec: C, body: CallInput<C>) =>
        answered(
          spec.path,
          await server.app.inject({
            method: 'POST',
            url: `${API_BASE}${spec.path}`,
            payload: body as object,
            headers: { authorization: `Bearer ${token}` },
          }),
        ) as CallAnswer<C>;
      const upload = async (owner: Record<string, number>, name: string, content: Buffer) => {
        const fields = Object.fromEntries(Object.entries(owner).map(([key, value]) => [key, String(value)]));
        const { payload, contentType } = multipartBody(fields, { name, content });
        const response = await server.app.inject({
          method: 'POST',
          url: `${API_BASE}${api.files.upload.path}`,
          payload,
          headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
        });
        return (answered(api.files.upload.path, response) as CallAnswer<typeof api.files.upload>).fileId;
      };
      return Object.assign(call, { upload });
    };
    const asAdmin = await as(admin.userNo);
    let added = 0;

    for (const department of DEMO_DEPARTMENTS) {
      const [exists] = await db.select().from(departments).where(eq(departments.code, department.code));
      if (!exists) {
        await asAdmin(api.departments.create, department);
        added += 1;
      }
    }
    for (const user of DEMO_USERS) {
      const [exists] = await db.select().from(users).where(eq(users.userId, user.userId));
      if (!exists) {
        await asAdmin(api.users.create, { ...user, password: DEMO_PASSWORD });
        added += 1;
      }
    }
    for (const { leader, project, completed } of DEMO_PROJECTS) {
      const [exists] = await db.select().from(projects).where(eq(projects.title, project.title));
      if (exists) continue;
      const [leaderRow] = await db.select().from(users).where(eq(users.userId, leader));
      if (!leaderRow) throw new Error(`leader ${leader} missing`);
      const asLeader = await as(leaderRow.userNo);
      await asLeader(api.projects.create, project);
      added += 1;
      if (completed) {
        // Closing needs reviewer signatures; the demo marks these as completed directly, on the record.
        await db.transaction(async (tx) => {
          const [row] = await tx
            .update(projects)
            .set({ status: 'C', finishedAt: new Date() })
            .where(and(eq(projects.title, project.title), eq(projects.status, 'ING')))
            .returning();
          if (row) {
            await appendAudit(tx, {
              actor: { userNo: leaderRow.userNo, userId: leaderRow.userId },
              action: 'project.finished',
              target: { type: 'project', id: row.projectNo },
              before: { status: 'ING' },
              after: { status: 'C' },
              reason: AUDIT_SYSTEM_REASONS.demoData,
              clientAddress: 'seed:demo',
            });
          }
        });
      }
    }
    added += await seedLibraries(db, as);
    added += await seedTemplates(db, as);
    added += await seedNotes(db, as);
    return added;
  } finally {
    for (const sessionId of seedSessions) await revokeSession(db, sessionId, 'seed finished');
  }
}
