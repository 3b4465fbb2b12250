import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { eq, inArray } from 'drizzle-orm';
import { canonicalJson, ERR, formatZonedTime, noteDocumentName, PRODUCT, type Language, type SavedBlock } from '@eln/shared';
import { blockAuthorAccounts } from '../../collab/authors/clientAuthors.js';
import { exportThreads, type ExportComment, type ExportThread } from '../../comments/exportThreads.js';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { versionState } from '../../notes/history.js';
import { renderVersionHtml } from '../../rendering/render.js';
import {
  exportNoteNos,
  loadExportNote,
  loadVersionBlocks,
  loadExportProject,
  projectAuditEntries,
  type ExportAuditEntry,
  type ExportFile,
  type ExportNote,
  type ExportPerson,
  type ExportProject,
  type ExportSignature,
} from '../projectContent.js';
import {
  CHECKSUMS_FILE,
  dayInZone,
  DRAFT_FILE,
  DRAFT_FILE_FORMAT,
  ELN_FORMAT_VERSION,
  isoInZone,
  METADATA_FILE,
  PDF_COPIES_ID,
  PDF_COPIES_PROPERTY,
  PROJECT_FOLDER,
  PROJECT_GENRE,
  PUBLIC_KEY_FILE,
  ref,
  RO_CRATE_CONTEXT,
  RO_CRATE_SPEC,
  safeSegment,
  SIGNATURE_FILE,
  SIGNATURE_GENRES,
  SIGNATURE_STATES,
  VERSION_FILE_FORMAT,
  VERSION_FILE_FORMAT_VERSION,
  type DraftFile,
  type Entity,
  type Ref,
  type VersionFile,
} from './crate.js';
import { elnMessage, NOTE_STATUS_NAMES, SIGNATURE_MEANINGS } from './messages.js';
import { exportSigningKey, minisignPublicKeyFile, minisignSignature, type SigningKey } from './minisign.js';
import { TimestampEvidence, TIMESTAMPS_README, type AddFile } from './timestampEvidence.js';
import { ZipWriter, type WrittenEntry } from './zipWriter.js';

export interface ElnExportOptions {
  projectNo: number;
  /** The notes to export, in order (see exportNoteNos); a note deleted meanwhile is left out. */
  noteNos: readonly number[];
  filesDir: string;
  exportedAt: Date;
  exportedBy: { userId: string; name: string };
  /** Language of the rendered versions and of the archive's descriptions. */
  lang: Language;
  /** Zone of the root folder's date and of the times written out for people (IANA); UTC by default. */
  timeZone?: string;
  /** Who runs this notebook: the crate's publisher and the licence's holder (config COMPANY_NAME). */
  organization?: string;
  /** The latest saved version of a note as PDF; without it the archive holds no PDFs, and its crate says so. */
  notePdf?: (project: ExportProject, note: ExportNote) => Promise<Buffer>;
  /** Why there is no `notePdf`, for the crate to say: the server cannot print (chromium is not installed). */
  pdfOmitted?: 'noBrowser';
  /** The full URL of this server's published keys (PUBLIC_URL + WELL_KNOWN_KEYS): the signature's trusted comment. */
  keysUrl: string;
}

/** A stored file that could not be exported as recorded. */
export interface DamagedFile {
  noteNo: number;
  fileId: string;
  originName: string;
  /** missing: not in storage (left out); changed: its bytes no longer match the SHA-256 recorded at upload (included, marked). */
  problem: 'missing' | 'changed';
}

export interface ElnExportResult {
  /** The root folder inside the archive; `${rootFolder}.eln` makes a good download name. */
  rootFolder: string;
  fileName: string;
  /** The archive's own size and SHA-256. */
  bytes: number;
  sha256: string;
  noteCount: number;
  fileCount: number;
  /** The signing key's id, as `minisign` prints it. */
  keyId: string;
  damagedFiles: DamagedFile[];
}

/** Media types stored as they are: compressing them again gains nothing. */
const STORED_AS_IS = /^(image\/(png|jpeg|gif)|application\/(pdf|zip|vnd\.rar|vnd\.openxmlformats-.*|vnd\.oasis\..*))$/;

/** Collects the crate's entities while the archive's entries are written, and the lines of SHA256SUMS. */
class CrateGraph {
  readonly entities = new Map<string, Entity>();
  readonly checksumLines: string[] = [];
  private readonly people = new Map<number, ExportPerson>();
  private readonly named = new Map<string, string>();

  add(entity: Entity): Ref {
    this.entities.set(entity['@id'], entity);
    return ref(entity['@id']);
  }

  /** A File entity for an entry written into the archive (path relative to the root folder). */
  file(entryPath: string, written: WrittenEntry, fields: Record<string, unknown>): Ref {
    this.checksumLines.push(`${written.sha256}  ${entryPath}`);
    return this.add({ '@id': entryPath, '@type': 'File', ...fields, contentSize: String(written.size), sha256: written.sha256 });
  }

  person(who: ExportPerson): Ref {
    this.people.set(who.userNo, who);
    return ref(personId(who.userNo));
  }

  /** A person known only by name (an imported note's author, who has no account here). */
  namedPerson(name: string): Ref {
    const id = `#author-${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
    this.named.set(id, name);
    return ref(id);
  }

  knowsPerson(userNo: number): boolean {
    return this.people.has(userNo);
  }

  /** Every Person met, as top-level entities. */
  personEntities(): Entity[] {
    return [
      ...[...this.people.values()].map((p) => ({ '@id': personId(p.userNo), '@type': 'Person', name: p.name, identifier: p.userId })),
      ...[...this.named].map(([id, name]) => ({ '@id': id, '@type': 'Person', name })),
    ];
  }
}

const personId = (userNo: number) => `#person-${userNo}`;

/** Everything one archive's notes share while they are written. */
interface ArchiveContext {
  db: Db;
  options: ElnExportOptions;
  project: ExportProject;
  zip: ZipWriter;
  graph: CrateGraph;
  zone: string;
  damaged: DamagedFile[];
  /** Note and file ids mapped to their entities, for the audit records to point at. */
  noteEntities: Map<number, string>;
  fileEntities: Map<string, string>;
  /** The trusted time-stamps' files and their README (timestampEvidence.ts). */
  evidence: TimestampEvidence;
  /** Adds an entry at a path relative to the root folder and describes it in the crate. */
  addFile: AddFile;
}

/**
 * Writes one project as a signed .eln archive to `output`, streamed: notes are read one at a time, files
 * are streamed from storage, and no entry is held in memory longer than it takes to write it. The crate
 * (ro-crate-metadata.json) is written last, once every file's SHA-256 is known, then signed with the
 * server's export key. `onProgress` hears how many of the notes are written (plus one step for the crate).
 */
export async function writeElnArchive(
  db: Db,
  options: ElnExportOptions,
  output: NodeJS.WritableStream,
  onProgress: (done: number, total: number) => void = () => undefined,
): Promise<ElnExportResult> {
  const project = await loadExportProject(db, options.projectNo);
  if (!project) throw new AppError(ERR.notFound);
  const key = await exportSigningKey(db);
  const zone = options.timeZone ?? 'UTC';
  const rootFolder = `${safeSegment(project.title, 60, `project-${project.projectNo}`)}-${dayInZone(options.exportedAt, zone)}`;
  const zip = new ZipWriter(output, options.exportedAt);
  const graph = new CrateGraph();
  const ctx: ArchiveContext = {
    db,
    options,
    project,
    zip,
    graph,
    zone,
    damaged: [],
    noteEntities: new Map(),
    fileEntities: new Map(),
    evidence: new TimestampEvidence(options.lang, zone),
    addFile: async (relative, bytes, description, encodingFormat) =>
      graph.file(relative, await zip.addBytes(`${rootFolder}/${relative}`, bytes, { compress: true }), {
        name: relative.slice(relative.lastIndexOf('/') + 1),
        encodingFormat,
        description,
      }),
  };
  const total = options.noteNos.length + 1;
  onProgress(0, total);
  try {
    const noteParts: Ref[] = [];
    zip.addFolder(`${rootFolder}/${PROJECT_FOLDER}`);
    // Only the project's own live notes, whatever the caller's list says (it may be stale by now).
    const inProject = new Set(await exportNoteNos(db, project.projectNo));
    let done = 0;
    for (const noteNo of options.noteNos) {
      const note = inProject.has(noteNo) ? await loadExportNote(db, noteNo, options.filesDir, { withDraft: true }) : undefined;
      if (note) noteParts.push(await writeNote(ctx, rootFolder, note));
      done += 1;
      onProgress(done, total);
    }
    describeProject(ctx, noteParts);
    await describeAudit(ctx);
    const readme = ctx.evidence.readme();
    const rootParts = readme
      ? [await ctx.addFile(TIMESTAMPS_README, encoder.encode(readme), elnMessage('timestampsReadme', options.lang), 'text/plain')]
      : [];
    const metadata = await finishCrate(ctx, rootFolder, key, rootParts);
    // The trusted comment is the URL of the keys, as the format's specification says it should be; the
    // rest (who exported what, when) is in the signed crate itself, and repeated untrusted for a reader.
    const signature = minisignSignature(key, metadata, { untrusted: untrustedComment(ctx, rootFolder, key), trusted: options.keysUrl });
    await zip.addBytes(`${rootFolder}/${SIGNATURE_FILE}`, Buffer.from(signature, 'utf8'), { compress: false });
    const archive = await zip.finish();
    onProgress(total, total);
    return {
      rootFolder,
      fileName: `${rootFolder}.eln`,
      bytes: archive.size,
      sha256: archive.sha256,
      noteCount: noteParts.length,
      fileCount: ctx.fileEntities.size,
      keyId: key.keyId,
      damagedFiles: ctx.damaged,
    };
  } catch (error) {
    zip.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value));

/** Writes a note's files, versions and PDF, and describes it; answers its Dataset. */
async function writeNote(ctx: ArchiveContext, rootFolder: string, note: ExportNote): Promise<Ref> {
  const { graph, options } = ctx;
  const folder = `${PROJECT_FOLDER}${safeSegment(note.labNoteNumber, 40, `note-${note.noteNo}`)}/`;
  const entry = (relative: string) => `${rootFolder}/${folder}${relative}`;
  ctx.zip.addFolder(entry(''));
  const parts: Ref[] = [];
  const comments: Ref[] = [];

  // Files first, so that the rendered versions can link them by their place in the archive.
  const filePaths = new Map<string, string>();
  for (const file of note.files) {
    const written = await writeStoredFile(ctx, note, file, entry);
    if (!written) {
      comments.push(
        graph.add({
          '@id': `#missing-file-${file.fileId}`,
          '@type': 'Comment',
          name: file.originName,
          text: elnMessage('fileMissing', options.lang, { name: file.originName, hash: file.sha256 }),
        }),
      );
      continue;
    }
    const relative = fileEntryName(file);
    filePaths.set(file.fileId, relative);
    const changed = written.sha256 !== file.sha256 || written.size !== file.size;
    if (changed) ctx.damaged.push({ noteNo: note.noteNo, fileId: file.fileId, originName: file.originName, problem: 'changed' });
    const fileRef = graph.file(`${folder}${relative}`, written, {
      name: file.originName,
      encodingFormat: file.mimeType,
      identifier: file.fileId,
      ...(changed ? { description: elnMessage('fileChanged', options.lang, { hash: file.sha256 }) } : {}),
    });
    ctx.fileEntities.set(file.fileId, fileRef['@id']);
    parts.push(fileRef);
  }

  const versionEntities = new Map<number, string>();
  for (const version of note.history) {
    const blocks =
      note.latest && version.version === note.latest.version
        ? note.latest.blocks
        : await loadVersionBlocks(ctx.db, note.noteNo, version.version);
    const saver = graph.person(version.savedBy);
    const authors = await blockAuthorAccounts(
      ctx.db,
      noteDocumentName(note.noteNo),
      await versionState(ctx.db, note.noteNo, version.version),
    );
    const contributors = new Map(Object.values(authors).flatMap((people) => people.map((person) => [person.userNo, person] as const)));
    const content: VersionFile = {
      format: VERSION_FILE_FORMAT,
      formatVersion: VERSION_FILE_FORMAT_VERSION,
      labNoteNumber: note.labNoteNumber,
      title: note.title,
      version: version.version,
      savedAt: version.savedAt.toISOString(),
      savedBy: { userId: version.savedBy.userId, name: version.savedBy.name },
      blocksHash: version.blocksHash,
      blocks,
      authors: Object.fromEntries(
        Object.entries(authors).map(([blockUid, people]) => [blockUid, people.map(({ userId, name }) => ({ userId, name }))]),
      ),
      restoredFrom: version.restoredFrom,
      reason: version.reason,
    };
    const common = {
      version: String(version.version),
      dateCreated: version.savedAt.toISOString(),
      author: saver,
      // Everyone whose live edits wrote this version's blocks (the blocks file names them block by block).
      ...(contributors.size ? { contributor: [...contributors.values()].map((person) => graph.person(person)) } : {}),
    };
    const jsonName = `v${version.version}.json`;
    const json = graph.file(`${folder}${jsonName}`, await ctx.zip.addBytes(entry(jsonName), jsonBytes(content), { compress: true }), {
      name: jsonName,
      encodingFormat: 'application/json',
      description: elnMessage('versionBlocks', options.lang, { version: version.version, hash: version.blocksHash }),
      ...common,
    });
    versionEntities.set(version.version, json['@id']);
    const html = renderVersionHtml(blocks, {
      lang: options.lang,
      title: note.title,
      fileSource: (fileId) => filePaths.get(fileId) ?? null,
    });
    const htmlName = `v${version.version}.html`;
    const page = graph.file(`${folder}${htmlName}`, await ctx.zip.addBytes(entry(htmlName), encoder.encode(html), { compress: true }), {
      name: htmlName,
      encodingFormat: 'text/html',
      description: elnMessage('versionHtml', options.lang, { version: version.version }),
      ...common,
    });
    parts.push(json, page);
  }

  if (!note.latest && note.draft?.length) parts.push(...(await writeDraft(ctx, note, note.draft, folder, entry, filePaths)));

  // Each archived version's and signature's trusted time-stamp, with what checks it offline.
  for (const version of note.history) {
    if (!version.timestamp) continue;
    const what = elnMessage('stampOfVersion', options.lang, { note: note.labNoteNumber, version: version.version });
    parts.push(...(await ctx.evidence.add(ctx.addFile, folder, `version-${version.version}`, what, version.timestamp)));
  }
  for (const signature of note.signatures) {
    if (!signature.timestamp || signature.status !== 'T') continue;
    const what = elnMessage('stampOfSignature', options.lang, {
      note: note.labNoteNumber,
      signer: signature.signer.name,
      meaning: SIGNATURE_MEANINGS[signature.type][options.lang],
      version: signature.signedVersion ?? '?',
    });
    parts.push(...(await ctx.evidence.add(ctx.addFile, folder, `signature-${signature.signatureId}`, what, signature.timestamp)));
  }

  if (options.notePdf && note.latest) {
    const pdf = await options.notePdf(ctx.project, note);
    const pdfName = `${safeSegment(note.labNoteNumber, 40, `note-${note.noteNo}`)}-v${note.latest.version}.pdf`;
    parts.push(
      graph.file(`${folder}${pdfName}`, await ctx.zip.addBytes(entry(pdfName), pdf, { compress: false }), {
        name: pdfName,
        encodingFormat: 'application/pdf',
        description: elnMessage('versionPdf', options.lang, { version: note.latest.version }),
        version: String(note.latest.version),
        dateCreated: options.exportedAt.toISOString(),
      }),
    );
  }

  for (const signature of note.signatures) comments.push(graph.add(signatureComment(ctx, signature, versionEntities)));
  for (const entity of threadComments(ctx, folder, await exportThreads(ctx.db, note.noteNo))) comments.push(graph.add(entity));

  const dataset: Entity = {
    '@id': folder,
    '@type': 'Dataset',
    name: note.title,
    identifier: note.labNoteNumber,
    // An imported note's authors are the people of the archive it came from, not the account that imported it.
    author: note.importedAuthors?.length ? note.importedAuthors.map((name) => graph.namedPerson(name)) : graph.person(note.writer),
    dateCreated: note.createdAt.toISOString(),
    dateModified: note.updatedAt.toISOString(),
    creativeWorkStatus: NOTE_STATUS_NAMES[note.status].en,
    version: String(note.latest?.version ?? 0),
    ...(parts.length ? { hasPart: parts } : {}),
    ...(comments.length ? { comment: comments } : {}),
  };
  if (note.template) {
    const template = note.template;
    const templateId = `#template-${template.templateNo}${template.revision !== null ? `-r${template.revision}` : ''}`;
    graph.add({
      '@id': templateId,
      '@type': 'CreativeWork',
      name: template.title,
      identifier: `template-${template.templateNo}`,
      ...(template.version ? { version: template.version } : {}),
    });
    dataset.isBasedOn = ref(templateId);
    graph.add({
      '@id': `#note-${note.noteNo}-created`,
      '@type': 'CreateAction',
      name: elnMessage('createdFromTemplate', options.lang, { template: template.title, version: template.version ?? '' }).trim(),
      agent: graph.person(note.writer),
      endTime: note.createdAt.toISOString(),
      instrument: ref(templateId),
      result: ref(dataset['@id']),
    });
  }
  ctx.noteEntities.set(note.noteNo, dataset['@id']);
  return graph.add(dataset);
}

/**
 * A note never saved: its live document's blocks (`draft.json`, read back by the import as the draft of
 * a note still unsaved) and as a web page. Neither is a version, and both say so.
 */
async function writeDraft(
  ctx: ArchiveContext,
  note: ExportNote,
  blocks: SavedBlock[],
  folder: string,
  entry: (relative: string) => string,
  filePaths: ReadonlyMap<string, string>,
): Promise<Ref[]> {
  const { graph, options } = ctx;
  const content: DraftFile = {
    format: DRAFT_FILE_FORMAT,
    formatVersion: VERSION_FILE_FORMAT_VERSION,
    labNoteNumber: note.labNoteNumber,
    title: note.title,
    blocks,
  };
  const common = { dateModified: note.updatedAt.toISOString(), creativeWorkStatus: 'unsaved draft' };
  const json = graph.file(`${folder}${DRAFT_FILE}`, await ctx.zip.addBytes(entry(DRAFT_FILE), jsonBytes(content), { compress: true }), {
    name: DRAFT_FILE,
    encodingFormat: 'application/json',
    description: elnMessage('draftBlocks', options.lang),
    ...common,
  });
  const html = renderVersionHtml(blocks, { lang: options.lang, title: note.title, fileSource: (fileId) => filePaths.get(fileId) ?? null });
  const htmlName = 'draft.html';
  const page = graph.file(`${folder}${htmlName}`, await ctx.zip.addBytes(entry(htmlName), encoder.encode(html), { compress: true }), {
    name: htmlName,
    encodingFormat: 'text/html',
    description: elnMessage('draftHtml', options.lang),
    ...common,
  });
  return [json, page];
}

/** A stored file's name inside its note's folder: its id and extension, so no uploaded name can clash or escape. */
function fileEntryName(file: ExportFile): string {
  const extension = file.extension.replace(/[^a-z0-9]/gi, '').toLowerCase();
  return `files/${file.fileId}${extension ? `.${extension}` : ''}`;
}

/** Streams a stored file into the archive; null (and recorded as missing) when storage no longer has it. */
async function writeStoredFile(
  ctx: ArchiveContext,
  note: ExportNote,
  file: ExportFile,
  entry: (relative: string) => string,
): Promise<WrittenEntry | null> {
  const found = await stat(file.absolutePath).catch(() => null);
  if (!found?.isFile()) {
    ctx.damaged.push({ noteNo: note.noteNo, fileId: file.fileId, originName: file.originName, problem: 'missing' });
    return null;
  }
  return ctx.zip.add(entry(fileEntryName(file)), () => createReadStream(file.absolutePath), {
    compress: !STORED_AS_IS.test(file.mimeType),
  });
}

/**
 * The note's comment threads as Comments about the note: each first comment's `parentItem` is the note,
 * each reply's its thread's first comment (the note when that was deleted); each says it is not part of
 * the signed content (`genre` "comment", told apart from signatures' genres on import).
 */
function threadComments(ctx: ArchiveContext, folder: string, threads: readonly ExportThread[]): Entity[] {
  const { lang } = ctx.options;
  const entity = (comment: ExportComment, parent: string, thread: ExportThread, first: boolean): Entity => ({
    '@id': `#comment-${comment.commentId}`,
    '@type': 'Comment',
    genre: 'comment',
    about: ref(folder),
    parentItem: ref(parent),
    author: ctx.graph.person(comment.author),
    dateCreated: comment.createdAt.toISOString(),
    ...(comment.editedAt ? { dateModified: comment.editedAt.toISOString() } : {}),
    text: comment.text,
    description: [
      first && thread.quote ? elnMessage('commentOn', lang, { quote: thread.quote }) : '',
      first && thread.onDeletedText ? elnMessage('commentOnDeletedText', lang) : '',
      elnMessage('commentNotSigned', lang),
    ]
      .filter(Boolean)
      .join(' '),
    ...(first ? { creativeWorkStatus: thread.resolved ? 'Resolved' : 'Open', identifier: thread.blockUid } : {}),
  });
  return threads.flatMap((thread) => {
    const parent = thread.first ? `#comment-${thread.first.commentId}` : folder;
    return [
      ...(thread.first ? [entity(thread.first, folder, thread, true)] : []),
      ...thread.replies.map((reply) => entity(reply, parent, thread, false)),
    ];
  });
}

/** A signature as a Comment: who, meaning, printed name, time in the signer's zone, version, hash and whether it still holds. */
function signatureComment(ctx: ArchiveContext, signature: ExportSignature, versionEntities: Map<number, string>): Entity {
  const { lang } = ctx.options;
  const meaning = SIGNATURE_MEANINGS[signature.type][lang];
  const signer = signature.signer.name;
  const base: Entity = {
    '@id': `#signature-${signature.signatureId}`,
    '@type': 'Comment',
    name: elnMessage('signatureName', lang, { meaning }),
    genre: SIGNATURE_GENRES[signature.type],
    author: ctx.graph.person(signature.signer),
  };
  if (signature.status === 'T' && signature.signedAt) {
    const zoned = formatZonedTime(signature.signedAt, signature.timeZone, lang);
    const integrity = elnMessage(signature.intact ? 'intact' : 'broken', lang);
    const about = signature.signedVersion !== null ? versionEntities.get(signature.signedVersion) : undefined;
    return {
      ...base,
      creativeWorkStatus: signature.intact ? SIGNATURE_STATES.intact : SIGNATURE_STATES.broken,
      dateCreated: isoInZone(signature.signedAt, signature.timeZone),
      ...(signature.signatureName ? { alternateName: signature.signatureName } : {}),
      ...(signature.signedVersion !== null ? { version: String(signature.signedVersion) } : {}),
      ...(signature.blocksHash ? { identifier: signature.blocksHash } : {}),
      ...(about ? { about: ref(about) } : {}),
      text: elnMessage('signed', lang, {
        meaning,
        signer,
        printed: signature.signatureName ?? signer,
        version: signature.signedVersion ?? '?',
        time: zoned?.text ?? signature.signedAt.toISOString(),
        zone: zoned?.zone ?? 'UTC',
        hash: signature.blocksHash ?? '?',
        integrity,
      }),
    };
  }
  if (signature.status === 'F') {
    const comment = signature.description ? `: ${signature.description}` : '';
    return {
      ...base,
      creativeWorkStatus: SIGNATURE_STATES.declined,
      ...(signature.signedAt ? { dateCreated: isoInZone(signature.signedAt, signature.timeZone) } : {}),
      text: elnMessage('declined', lang, { meaning, signer, comment }),
    };
  }
  if (signature.status === 'C') {
    return {
      ...base,
      creativeWorkStatus: SIGNATURE_STATES.cancelled,
      ...(signature.signedAt ? { dateCreated: isoInZone(signature.signedAt, signature.timeZone) } : {}),
      text: elnMessage('cancelled', lang, { meaning, signer }),
    };
  }
  return { ...base, creativeWorkStatus: SIGNATURE_STATES.requested, text: elnMessage('requested', lang, { meaning, signer }) };
}

function describeProject(ctx: ArchiveContext, noteParts: Ref[]): void {
  const { project, graph } = ctx;
  graph.add({
    '@id': PROJECT_FOLDER,
    '@type': 'Dataset',
    name: project.title,
    ...(project.description.trim() ? { description: project.description } : {}),
    identifier: `project-${project.projectNo}`,
    author: graph.person(project.leader),
    ...(project.participants.length ? { contributor: project.participants.map((p) => graph.person(p)) } : {}),
    dateCreated: project.createdAt.toISOString(),
    dateModified: project.updatedAt.toISOString(),
    creativeWorkStatus: project.status === 'C' ? 'completed' : 'in progress',
    genre: PROJECT_GENRE,
    ...(noteParts.length ? { hasPart: noteParts } : {}),
  });
}

/** The audit records of the project, its notes and their files as Actions, each with what its hash covers. */
async function describeAudit(ctx: ArchiveContext): Promise<void> {
  const { db, graph, project } = ctx;
  const entries = await projectAuditEntries(db, project.projectNo, [...ctx.noteEntities.keys()], [...ctx.fileEntities.keys()]);
  const unknown = [...new Set(entries.map((e) => e.actorUserNo).filter((n): n is number => n !== null && !graph.knowsPerson(n)))];
  const actors = unknown.length
    ? await db.select({ userNo: users.userNo, userId: users.userId, name: users.name }).from(users).where(inArray(users.userNo, unknown))
    : [];
  const byNo = new Map(actors.map((a) => [a.userNo, a]));
  for (const entry of entries) {
    const actor = entry.actorUserNo !== null ? byNo.get(entry.actorUserNo) : undefined;
    const agent = actor
      ? graph.person(actor)
      : entry.actorUserNo !== null && graph.knowsPerson(entry.actorUserNo)
        ? ref(`#person-${entry.actorUserNo}`)
        : undefined;
    const object = auditObject(ctx, entry);
    graph.add({
      '@id': `#audit-${entry.seq}`,
      '@type': 'Action',
      name: entry.action,
      startTime: entry.at.toISOString(),
      endTime: entry.at.toISOString(),
      actionStatus: ref('http://schema.org/CompletedActionStatus'),
      ...(agent ? { agent } : {}),
      ...(object ? { object: ref(object) } : {}),
      identifier: entry.hash,
      description: auditRecordText(entry),
    });
  }
}

function auditObject(ctx: ArchiveContext, entry: ExportAuditEntry): string | undefined {
  if (entry.targetType === 'project') return PROJECT_FOLDER;
  if (entry.targetType === 'note' && entry.targetId) return ctx.noteEntities.get(Number(entry.targetId));
  if (entry.targetType === 'file' && entry.targetId) return ctx.fileEntities.get(entry.targetId);
  return undefined;
}

/** The record as the chain hashes it (see hashOf in audit.ts), so its hash can be checked from the archive alone. */
function auditRecordText(entry: ExportAuditEntry): string {
  return canonicalJson({
    seq: entry.seq,
    at: entry.at.toISOString(),
    actorUserNo: entry.actorUserNo,
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before,
    after: entry.after,
    reason: entry.reason,
    clientAddress: entry.clientAddress,
    ...(entry.tokenId ? { tokenId: entry.tokenId } : {}),
    prevHash: entry.prevHash,
  });
}

/** What the signature is of, for a person reading it (not covered by the signature: the crate says it all, signed). */
function untrustedComment(ctx: ArchiveContext, rootFolder: string, key: SigningKey): string {
  const { options, project } = ctx;
  const notebook = options.organization ? `${options.organization} ELN ${PRODUCT.version}` : `ELN ${PRODUCT.version}`;
  const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
  return [
    `signature of ${METADATA_FILE} by the export key ${key.keyId}`,
    `archive:${rootFolder}`,
    `notebook:${clean(notebook)}`,
    `project:${project.projectNo} ${clean(project.title)}`,
    `exporter:${clean(options.exportedBy.userId)} ${clean(options.exportedBy.name)}`,
    `exported:${options.exportedAt.toISOString()}`,
  ].join(' ');
}

/** Writes the public key, SHA256SUMS and the crate itself; answers the crate's bytes, to be signed. */
async function finishCrate(ctx: ArchiveContext, rootFolder: string, key: SigningKey, rootParts: Ref[]): Promise<Uint8Array> {
  const { graph, options, project, zip } = ctx;
  const organization = options.organization ?? 'ELN';
  const keyFile = graph.file(
    PUBLIC_KEY_FILE,
    await zip.addBytes(`${rootFolder}/${PUBLIC_KEY_FILE}`, encoder.encode(minisignPublicKeyFile(key)), { compress: false }),
    {
      name: PUBLIC_KEY_FILE,
      encodingFormat: 'text/plain',
      description: elnMessage('publicKey', options.lang),
      identifier: key.keyId,
    },
  );
  const sums = `${graph.checksumLines.join('\n')}\n`;
  const sumsFile = graph.file(
    CHECKSUMS_FILE,
    await zip.addBytes(`${rootFolder}/${CHECKSUMS_FILE}`, encoder.encode(sums), { compress: true }),
    {
      name: CHECKSUMS_FILE,
      encodingFormat: 'text/plain',
      description: elnMessage('checksums', options.lang),
    },
  );
  const published = options.exportedAt.toISOString();
  const exporterNo = await userNoOf(ctx.db, options.exportedBy.userId);
  const exporter =
    exporterNo !== null
      ? graph.person({ userNo: exporterNo, userId: options.exportedBy.userId, name: options.exportedBy.name })
      : undefined;
  const time = formatZonedTime(options.exportedAt, ctx.zone, options.lang)?.text ?? published;
  const pdfCopies = options.notePdf
    ? elnMessage('pdfCopiesIncluded', options.lang)
    : elnMessage(options.pdfOmitted === 'noBrowser' ? 'pdfCopiesNoBrowser' : 'pdfCopiesNotMade', options.lang);
  const head: Entity[] = [
    {
      '@id': METADATA_FILE,
      '@type': 'CreativeWork',
      about: ref('./'),
      conformsTo: ref(RO_CRATE_SPEC),
      dateCreated: published,
      sdPublisher: ref('#publisher'),
      version: ELN_FORMAT_VERSION,
    },
    {
      '@id': './',
      '@type': 'Dataset',
      name: elnMessage('rootName', options.lang, { project: project.title, date: dayInZone(options.exportedAt, ctx.zone) }),
      description: `${elnMessage('rootDescription', options.lang, {
        project: project.title,
        exporter: options.exportedBy.name,
        time,
        key: PUBLIC_KEY_FILE,
      })} ${pdfCopies}`,
      // Said for programs too: whether the notes' PDF copies are in the archive (`included` or `omitted`).
      additionalProperty: ref(PDF_COPIES_ID),
      datePublished: published,
      dateCreated: published,
      license: ref('#license'),
      version: '1',
      sdPublisher: ref('#publisher'),
      hasPart: [ref(PROJECT_FOLDER), keyFile, sumsFile, ...rootParts],
    },
    {
      '@id': PDF_COPIES_ID,
      '@type': 'PropertyValue',
      propertyID: PDF_COPIES_PROPERTY,
      name: elnMessage('pdfCopiesName', options.lang),
      value: options.notePdf ? 'included' : 'omitted',
      description: pdfCopies,
    },
    { '@id': '#publisher', '@type': 'Organization', name: organization },
    { '@id': '#software', '@type': 'SoftwareApplication', name: 'ELN', version: PRODUCT.version },
    { '@id': '#license', '@type': 'CreativeWork', name: elnMessage('licence', options.lang, { organization }) },
    {
      '@id': '#export',
      '@type': 'CreateAction',
      name: 'RO-Crate created',
      endTime: published,
      object: ref('./'),
      instrument: ref('#software'),
      ...(exporter ? { agent: exporter } : {}),
      actionStatus: ref('http://schema.org/CompletedActionStatus'),
    },
  ];
  const crate = { '@context': RO_CRATE_CONTEXT, '@graph': [...head, ...graph.entities.values(), ...graph.personEntities()] };
  const bytes = encoder.encode(`${JSON.stringify(crate, null, 1)}\n`);
  await zip.addBytes(`${rootFolder}/${METADATA_FILE}`, bytes, { compress: true });
  return bytes;
}

async function userNoOf(db: Db, userId: string): Promise<number | null> {
  const [row] = await db.select({ userNo: users.userNo }).from(users).where(eq(users.userId, userId));
  return row?.userNo ?? null;
}
