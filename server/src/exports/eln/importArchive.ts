import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ELN_IMPORT_LIMITS,
  ERR,
  extensionOf,
  formatZonedTime,
  LIMITS,
  maxBytesOf,
  noteDocumentName,
  uploadKindOf,
  type ExtraFileType,
  type Language,
  type PmNode,
} from '@eln/shared';
import type { AuthUser } from '../../auth/authUser.js';
import { appendAudit, type AuditEntry } from '../../audit/audit.js';
import type { ServerConfig } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import { documentUpdates, files, labNotes, noteVersions, projectParticipants, projects } from '../../db/schema.js';
import { cleanFileName } from '../../files/fileName.js';
import { addedFileTypes } from '../../files/fileTypes.js';
import { contentCheckFor, mimeTypeOf, type ContentCheck } from '../../files/magic.js';
import { AppError } from '../../http/errors.js';
import { enforce } from '../../http/verdicts.js';
import { nextLabNoteNumber } from '../../notes/labNoteNumbers.js';
import { versionFingerprint } from '../../notes/versionFingerprint.js';
import { recordNoteWriter } from '../../notes/writers.js';
import { canCreateProject, CREATE_REFUSALS } from '../../projects/policy.js';
import { draftFile, METADATA_FILE, PUBLIC_KEY_FILE, SIGNATURE_FILE, versionFile } from './crate.js';
import {
  attachmentNode,
  ContentRefusal,
  heading,
  historySection,
  importedDocument,
  tableNode,
  textToNodes,
  withFileIds,
} from './importContent.js';
import { Crate, planImport, text, type ImportPlan, type NotePlan } from './importPlan.js';
import { elnMessage, SIGNATURE_MEANINGS } from './messages.js';
import {
  existingExportKey,
  MinisignError,
  minisignDigest,
  minisignKeyId,
  parseMinisignPublicKey,
  sameKey,
  verifyMinisign,
  type PublicKey,
} from './minisign.js';
import type { ImportBudget } from './importBudget.js';
import { addedSigningKey, recordImport } from './signingKeys.js';
import { ArchiveReader } from './zipReader.js';

/**
 * Whose key verified ro-crate-metadata.json.minisig: this server's, one an administrator added here, another
 * (shipped in the archive as eln-export-key.pub), none known here (`unknownKey`: the signature is kept
 * with its key id and the metadata's hash, verifiable once the key is added), or there is no signature.
 */
export type ElnSignedBy = 'thisServer' | 'addedKey' | 'otherKey' | 'unknownKey' | 'unsigned';

export interface ElnImportResult {
  projectNo: number;
  title: string;
  noteCount: number;
  fileCount: number;
  signed: ElnSignedBy;
  /** The signing key's id as minisign prints it (for `unknownKey`, as the signature names it); null when unsigned. */
  keyId: string | null;
  /** The added key's name (`addedKey`). */
  keyName: string | null;
  /** Files the archive lists without a SHA-256 (optional in the format): imported, their bytes not hash-checked. */
  uncheckedFiles: string[];
  /** Files the archive lists (and whose checksums matched) that the notebook does not take: wrong type or too large. */
  skippedFiles: string[];
}

export interface ElnImportOptions {
  /** Language of the history section each imported note ends with. */
  lang: Language;
  /** The archive's name as the user gave it (for the history and the audit record); the file's own name by default. */
  archiveName?: string;
  clientAddress?: string;
  /** The unpacking budget shared by the imports under way (services.elnImports); none counts nothing. */
  budget?: ImportBudget;
}

/** Who imports: they lead (and take part in) the new project. */
export type ElnImportUser = Pick<AuthUser, 'userNo' | 'userId' | 'name' | 'auth'>;

/** An attachment unpacked into storage (as `.partial` until the import commits). */
interface StagedFile {
  entityId: string;
  fileId: string;
  kind: 'image' | 'file';
  originName: string;
  extension: string;
  mimeType: string;
  size: number;
  sha256: string;
  storagePath: string;
  finalPath: string;
  partialPath: string;
}

interface SignatureCheck {
  signed: ElnSignedBy;
  keyId: string | null;
  /** The signature file as the archive holds it, kept in the import record so that it can be verified later. */
  minisig: string | null;
  /** The BLAKE2b-512 hash of ro-crate-metadata.json, what a (prehashed) minisign signature signs. */
  digest: Buffer | null;
  /** The added key that verified it (`addedKey`). */
  added: { keyNo: number; name: string } | null;
}

/** Counts and hashes what passes, and feeds it to the content check an upload of its type gets (if any). */
class Inspector extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly content: ContentCheck | null) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    this.content?.update(chunk);
    callback(null, chunk);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  /** Whether what passed is a non-empty file that reads as its type: its first bytes, or text throughout. */
  contentPasses(): boolean {
    return this.size > 0 && (this.content?.passes() ?? false);
  }
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

/**
 * Imports a .eln archive as a new project led by `user`. Everything is checked before anything is
 * written: the ZIP and its limits (8001, 8007), one root folder with ro-crate-metadata.json (8002), the
 * crate (8003), the minisign signature when there is one, against the public key the archive ships
 * (8004, 8009), every listed file's size and SHA-256 (8005, 8006), and each note's content (8008). Then
 * one transaction creates the project (its title made unique), its notes (each with its blocks as saved
 * version 1 and as its live document, or, never saved there, as its live document alone; its authors
 * there by name; and the original history, signatures included, as a marked section at its end: never as
 * signatures here) and their files, and the audit records; the files move into storage as it commits, and
 * a refused or failed import leaves none behind. The archive's unpacked size is reserved in `budget` for
 * as long as the import runs (8019 when it does not fit beside the imports under way).
 */
export async function importElnArchive(
  db: Db,
  config: Pick<ServerConfig, 'filesDir' | 'timeZone'>,
  user: ElnImportUser,
  zipPath: string,
  options: ElnImportOptions,
): Promise<ElnImportResult> {
  enforce(canCreateProject(user), CREATE_REFUSALS);
  const archiveName = options.archiveName ?? path.basename(zipPath);
  const staged: StagedFile[] = [];
  const reader = await ArchiveReader.open(zipPath);
  let release: (() => void) | undefined;
  try {
    release = options.budget?.reserve(reader.unpackedBytes);
    const metadataEntry = reader.entry(METADATA_FILE);
    if (!metadataEntry) throw new AppError(ERR.elnStructure, { data: { detail: `no ${METADATA_FILE} in the root folder` } });
    const metadata = await reader.bytes(metadataEntry, ELN_IMPORT_LIMITS.metadataBytes);
    const crate = Crate.read(metadata);
    const signature = await checkSignature(db, reader, metadata);
    const plan = planImport(crate);
    const keep = new Set(plan.notes.flatMap((note) => note.attachments.map((a) => a.entityId)));
    // The types an upload may have now, administrators' additions included: an archive brings no other.
    const extraTypes = await addedFileTypes(db);
    const { skipped: skippedFiles, unchecked: uncheckedFiles } = await verifyFiles(
      reader,
      crate,
      { keep, extraTypes },
      config.filesDir,
      staged,
    );
    const byEntity = new Map(staged.map((file) => [file.entityId, file]));
    const now = new Date();
    const context: NoteContext = {
      reader,
      crate,
      byEntity,
      lang: options.lang,
      zone: config.timeZone,
      intro: importIntro(options.lang, archiveName, now, config.timeZone, user, signature),
      skippedFiles,
      uncheckedFiles,
      extraTypes,
    };
    // Every note's content is judged before the transaction, so a refusal writes nothing and holds no lock.
    for (const note of plan.notes) await noteContent(context, note);
    const created = await db.transaction(async (tx) =>
      createProject(tx, config, user, plan, context, {
        archiveName,
        signature,
        staged,
        skippedFiles,
        uncheckedFiles,
        clientAddress: options.clientAddress ?? null,
      }),
    );
    return {
      ...created,
      fileCount: staged.length,
      signed: signature.signed,
      keyId: signature.keyId,
      keyName: signature.added?.name ?? null,
      skippedFiles,
      uncheckedFiles,
    };
  } catch (error) {
    await Promise.all(staged.flatMap((file) => [rm(file.partialPath, { force: true }), rm(file.finalPath, { force: true })]));
    throw error;
  } finally {
    reader.close();
    release?.();
  }
}

/**
 * The archive's signature, checked against this server's key or a key an administrator added when the
 * signature names one of theirs, else against the public key the archive ships: unsigned when there is
 * no .minisig. A signature by a key none of these is not refused: it is kept with its key id and the
 * metadata's hash as `unknownKey`, verified when an administrator adds the key (the format's keys are
 * published by the exporting notebook at a URL the import does not fetch). A signature that does not
 * read, or that a known key does not verify, is refused (8004).
 */
async function checkSignature(db: Db, reader: ArchiveReader, metadata: Buffer): Promise<SignatureCheck> {
  const signatureEntry = reader.entry(SIGNATURE_FILE);
  if (!signatureEntry) return { signed: 'unsigned', keyId: null, minisig: null, digest: null, added: null };
  const minisig = (await reader.bytes(signatureEntry, 64 * 1024)).toString('utf8');
  const refuse = (error: unknown): never => {
    if (error instanceof MinisignError) throw new AppError(ERR.elnSignature, { cause: error, data: { detail: error.message } });
    throw error;
  };
  const keyEntry = reader.entry(PUBLIC_KEY_FILE);
  let shipped: PublicKey | null = null;
  let signer = '';
  try {
    if (keyEntry) shipped = parseMinisignPublicKey((await reader.bytes(keyEntry, 64 * 1024)).toString('utf8'));
    signer = minisignKeyId(minisig);
  } catch (error) {
    refuse(error);
  }
  const verifyWith = (key: PublicKey) => {
    try {
      verifyMinisign(key, metadata, minisig);
    } catch (error) {
      refuse(error);
    }
  };
  const found = { keyId: signer, minisig, digest: minisignDigest(metadata), added: null };
  const own = await existingExportKey(db);
  if (own && signer === own.keyId && (!shipped || sameKey(shipped, own))) {
    verifyWith(own);
    return { ...found, signed: 'thisServer' };
  }
  const added = await addedSigningKey(db, signer);
  if (added) {
    verifyWith(added.key);
    return { ...found, signed: 'addedKey', added: { keyNo: added.keyNo, name: added.name } };
  }
  if (shipped) {
    verifyWith(shipped);
    return { ...found, keyId: shipped.keyId, signed: 'otherKey' };
  }
  return { ...found, signed: 'unknownKey' };
}

/**
 * Reads every file the crate lists and checks its size and SHA-256 (8006 missing, 8005 different); the
 * attachments of notes (`keep`) are unpacked into storage as `.partial` on the same read. An attachment
 * the notebook would not accept as an upload (type, size, content not matching its name) is left out and
 * named in the answer.
 */
async function verifyFiles(
  reader: ArchiveReader,
  crate: Crate,
  { keep, extraTypes }: { keep: ReadonlySet<string>; extraTypes: readonly ExtraFileType[] },
  filesDir: string,
  staged: StagedFile[],
): Promise<{ skipped: string[]; unchecked: string[] }> {
  const skipped: string[] = [];
  const unchecked: string[] = [];
  const now = new Date();
  for (const { entity, path: filePath } of crate.localFiles()) {
    const entry = reader.entry(filePath);
    if (!entry) throw new AppError(ERR.elnMissingFile, { params: { file: filePath } });
    const expected = text(entity, 'sha256')?.toLowerCase();
    const declaredSize = text(entity, 'contentSize');
    // sha256 is optional in the format: a file without one, or with a value that is no SHA-256 (PASTA's gold
    // standard writes MD5s and names there), is imported as not hash-checked; a SHA-256 must match.
    const checkable = expected !== undefined && /^[0-9a-f]{64}$/.test(expected);
    if (!checkable) unchecked.push(entity['@id']);
    const name = cleanFileName(text(entity, 'name') ?? filePath.split('/').at(-1) ?? 'file');
    const kind = uploadKindOf(name, extraTypes);
    // An attachment larger than an upload of its kind may be is only hashed, never unpacked into storage.
    const fits = kind !== null && entry.uncompressedSize <= maxBytesOf(kind);
    const target = keep.has(entity['@id']) && kind && fits ? stagingOf(filesDir, now, name, kind, entity['@id'], extraTypes) : null;
    if (target) {
      await mkdir(path.dirname(target.partialPath), { recursive: true });
      staged.push(target);
    }
    const inspector = new Inspector(target ? contentCheckFor(extensionOf(name), extraTypes) : null);
    try {
      await pipeline(await reader.stream(entry), inspector, target ? createWriteStream(target.partialPath) : discard());
    } catch (error) {
      // Storage failing (a full disk) is the server's trouble; anything else is the entry not reading as declared.
      if (error instanceof AppError || (error as { syscall?: unknown }).syscall !== undefined) throw error;
      throw new AppError(ERR.elnChecksum, { cause: error, params: { file: filePath } });
    }
    const sha256 = inspector.sha256();
    if ((checkable && sha256 !== expected) || (declaredSize !== undefined && Number(declaredSize) !== inspector.size)) {
      throw new AppError(ERR.elnChecksum, { params: { file: filePath } });
    }
    if (keep.has(entity['@id'])) {
      const refusal = !kind
        ? 'fileTypeRefused'
        : inspector.size > maxBytesOf(kind)
          ? 'fileTooLarge'
          : !inspector.contentPasses()
            ? 'fileTypeRefused'
            : null;
      if (refusal || !target) {
        if (target) {
          staged.splice(staged.indexOf(target), 1);
          await rm(target.partialPath, { force: true });
        }
        skipped.push(entity['@id']);
        continue;
      }
      Object.assign(target, { size: inspector.size, sha256 });
    }
  }
  return { skipped, unchecked };
}

/** Where an attachment is unpacked: the uploads' own layout (year/month/id.ext), as `.partial` until commit. */
function stagingOf(
  filesDir: string,
  now: Date,
  name: string,
  kind: 'image' | 'file',
  entityId: string,
  extraTypes: readonly ExtraFileType[],
): StagedFile {
  const fileId = randomUUID();
  const extension = extensionOf(name);
  const storagePath = path.join(String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'), `${fileId}.${extension}`);
  const finalPath = path.join(filesDir, storagePath);
  return {
    entityId,
    fileId,
    kind,
    originName: name,
    extension,
    mimeType: mimeTypeOf(extension, extraTypes),
    size: 0,
    sha256: '',
    storagePath,
    finalPath,
    partialPath: `${finalPath}.partial`,
  };
}

interface NoteContext {
  reader: ArchiveReader;
  crate: Crate;
  byEntity: ReadonlyMap<string, StagedFile>;
  lang: Language;
  /** Zone the history's times are written in (the notebook's). */
  zone: string;
  intro: string;
  skippedFiles: readonly string[];
  /** Files listed without a SHA-256, imported unchecked. */
  uncheckedFiles: readonly string[];
  /** The types administrators added to uploads, which an archive's attachments may have too. */
  extraTypes: readonly ExtraFileType[];
}

function importIntro(lang: Language, archive: string, now: Date, zone: string, user: ElnImportUser, signature: SignatureCheck): string {
  const signatureSentence =
    signature.signed === 'thisServer'
      ? elnMessage('archiveThisServer', lang, { keyId: signature.keyId ?? '' })
      : signature.signed === 'addedKey'
        ? elnMessage('archiveAddedKey', lang, { keyId: signature.keyId ?? '', name: signature.added?.name ?? '' })
        : signature.signed === 'otherKey'
          ? elnMessage('archiveOtherKey', lang, { keyId: signature.keyId ?? '' })
          : signature.signed === 'unknownKey'
            ? elnMessage('archiveUnknownKey', lang, { keyId: signature.keyId ?? '' })
            : elnMessage('archiveUnsigned', lang);
  return elnMessage('importIntro', lang, {
    archive,
    time: formatZonedTime(now, zone, lang)?.text ?? now.toISOString(),
    user: user.name,
    signature: signatureSentence,
  });
}

/** A note's blocks as imported: its own (the latest saved version) or its text, its attachments, then the history section. */
async function noteContent(
  ctx: NoteContext,
  note: NotePlan,
): Promise<{ state: Uint8Array; savedBlocks: ReturnType<typeof importedDocument>['savedBlocks'] }> {
  const { lang } = ctx;
  const refuse = (detail: string, cause?: unknown) =>
    new AppError(ERR.elnContent, { params: { note: note.name || note.datasetId }, data: { detail }, cause });
  const own: PmNode[] = [];
  const attached = note.attachments.map((a) => ctx.byEntity.get(a.entityId)).filter((f): f is StagedFile => f !== undefined);
  // This notebook's note: the blocks of its latest saved version or, never saved, of its draft.
  const blocksFile = note.latestVersion ?? note.draft;
  if (blocksFile) {
    const entry = ctx.reader.entry(blocksFile.path);
    if (!entry) throw new AppError(ERR.elnMissingFile, { params: { file: blocksFile.path } });
    const bytes = await ctx.reader.bytes(entry, ELN_IMPORT_LIMITS.blocksBytes);
    const expected = text(ctx.crate.get(blocksFile.entityId) ?? { '@id': '', '@type': 'File' }, 'sha256');
    if (createHash('sha256').update(bytes).digest('hex') !== expected)
      throw new AppError(ERR.elnChecksum, { params: { file: blocksFile.path } });
    let blocks;
    try {
      blocks = (note.latestVersion ? versionFile : draftFile).parse(JSON.parse(bytes.toString('utf8'))).blocks;
    } catch (error) {
      throw refuse(`${note.latestVersion ? 'the version' : 'the draft'} file is not a block list`, error);
    }
    const renamed = new Map(
      note.attachments.flatMap((a) =>
        a.originalFileId && ctx.byEntity.get(a.entityId) ? [[a.originalFileId, ctx.byEntity.get(a.entityId)!.fileId] as const] : [],
      ),
    );
    for (const block of [...blocks].sort((a, b) => a.blockOdr - b.blockOdr)) {
      try {
        own.push(withFileIds(JSON.parse(block.content) as PmNode, renamed));
      } catch (error) {
        throw refuse(`block ${block.blockUid} is not JSON`, error);
      }
    }
  } else {
    if (note.text) own.push(...textToNodes(note.text));
    const properties = tableNode([elnMessage('propertyColumns', lang).split('|'), ...note.properties], true);
    if (note.properties.length && properties) own.push(heading(elnMessage('originalProperties', lang), 3), properties);
    own.push(
      ...attached.map((file) =>
        attachmentNode({ fileId: file.fileId, name: file.originName, kind: file.kind, size: file.size, extension: file.extension }),
      ),
    );
  }
  const history = historySection(elnMessage('importHeading', lang), historyLines(ctx, note));
  try {
    return importedDocument([...own, ...history]);
  } catch (error) {
    if (error instanceof ContentRefusal) throw refuse(error.message, error);
    throw refuse(error instanceof Error ? error.message : String(error), error);
  }
}

/** What the section says of the note's past: where it came from, its versions, signatures, comments, left-out files. */
function historyLines(ctx: NoteContext, note: NotePlan): string[] {
  const { lang } = ctx;
  const unknown = elnMessage('unknownPerson', lang);
  const time = (iso: string | null) => (iso ? (formatZonedTime(iso, ctx.zone, lang)?.text ?? iso) : '?');
  const lines = [ctx.intro];
  lines.push(
    note.identifier
      ? elnMessage(note.status ? 'originalNote' : 'originalNoteNumber', lang, { number: note.identifier, status: note.status ?? '' })
      : elnMessage('originalNoteUnnumbered', lang, { name: note.name || note.datasetId }),
  );
  if (note.authors.length) lines.push(elnMessage('originalAuthors', lang, { names: note.authors.join(', ') }));
  if (note.created || note.modified)
    lines.push(elnMessage('originalDates', lang, { created: time(note.created), modified: time(note.modified ?? note.created) }));
  if (note.unsaved) lines.push(elnMessage('originalUnsaved', lang));
  if (note.template)
    lines.push(
      `${elnMessage('createdFromTemplate', lang, { template: note.template.name, version: note.template.version ?? '' }).trim()}.`,
    );
  for (const version of note.versions) {
    lines.push(
      elnMessage('originalVersion', lang, { version: version.version, time: time(version.savedAt), name: version.savedBy ?? unknown }),
    );
  }
  for (const signature of note.signatures) {
    const meaning = SIGNATURE_MEANINGS[signature.meaning as keyof typeof SIGNATURE_MEANINGS]?.[lang] ?? signature.meaning;
    lines.push(
      signature.text ??
        `${meaning}: ${signature.signer} (${signature.printedName ?? ''}) ${signature.signedAt ?? ''} ${signature.hash ?? ''} ${signature.status ?? ''}`,
    );
  }
  for (const comment of note.comments)
    lines.push(elnMessage('originalComment', lang, { name: comment.author ?? unknown, time: time(comment.at), text: comment.text }));
  for (const attachment of note.attachments) {
    if (ctx.uncheckedFiles.includes(attachment.entityId)) lines.push(elnMessage('fileNotHashChecked', lang, { name: attachment.name }));
    if (ctx.skippedFiles.includes(attachment.entityId)) {
      const kind = uploadKindOf(cleanFileName(attachment.name), ctx.extraTypes);
      lines.push(
        elnMessage('fileSkipped', lang, { name: attachment.name, reason: elnMessage(kind ? 'fileTooLarge' : 'fileTypeRefused', lang) }),
      );
    }
  }
  return lines;
}

const clip = (value: string, max: number) => Array.from(value).slice(0, max).join('').trim();

/** A title within `max` characters that `taken` does not refuse: the title, then "title (2)", "title (3)"... */
async function uniqueTitle(base: string, max: number, taken: (title: string) => Promise<boolean>): Promise<string> {
  const plain = clip(base, max);
  if (!(await taken(plain))) return plain;
  for (let n = 2; n < 10_000; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${clip(base, max - suffix.length)}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new Error('no free title found');
}

interface ImportRecord {
  archiveName: string;
  signature: SignatureCheck;
  staged: StagedFile[];
  skippedFiles: string[];
  uncheckedFiles: string[];
  clientAddress: string | null;
}

/** The project, its notes and files, and the audit records, in the caller's transaction. */
async function createProject(
  tx: Tx,
  config: Pick<ServerConfig, 'timeZone'>,
  user: ElnImportUser,
  plan: ImportPlan,
  ctx: NoteContext,
  record: ImportRecord,
): Promise<{ projectNo: number; title: string; noteCount: number }> {
  const { lang } = ctx;
  const actor = { userNo: user.userNo, userId: user.userId };
  let project: typeof projects.$inferSelect | undefined;
  // A concurrent creation of the same title loses nothing: the insert that finds it taken tries the next.
  const title = await uniqueTitle(plan.projectName ?? elnMessage('untitledProject', lang), LIMITS.projectTitle, async (candidate) => {
    [project] = await tx
      .insert(projects)
      .values({ title: candidate, description: clip(plan.projectDescription ?? '', LIMITS.projectDescription), leaderUserNo: user.userNo })
      .onConflictDoNothing()
      .returning();
    return !project;
  });
  if (!project) throw new Error('imported project not created');
  const projectNo = project.projectNo;
  const importNo = await recordImport(tx, {
    projectNo,
    archiveName: record.archiveName,
    importedByUserNo: user.userNo,
    signed: record.signature.signed,
    keyId: record.signature.keyId,
    metadataBlake2b: record.signature.digest,
    minisig: record.signature.minisig,
    keyNo: record.signature.added?.keyNo ?? null,
    check: record.signature.added ? 'verified' : null,
    checkedAt: record.signature.added ? new Date() : null,
  });
  // The importer leads the project and takes part in it, so its notes are theirs to write.
  await tx.insert(projectParticipants).values({ projectNo, userNo: user.userNo });

  const audits: AuditEntry[] = [];
  const noteTitles = new Set<string>();
  const importedNotes: Array<Record<string, unknown>> = [];
  for (const note of plan.notes) {
    const { state, savedBlocks } = await noteContent(ctx, note);
    const noteTitle = await uniqueTitle(note.name || elnMessage('untitledNote', lang), LIMITS.noteTitle, async (candidate) =>
      noteTitles.has(candidate),
    );
    noteTitles.add(noteTitle);
    // A note never saved there arrives unsaved: no version, its content only in the live document.
    const version = note.unsaved ? 0 : 1;
    const blocksHash = note.unsaved ? null : versionFingerprint(savedBlocks);
    const [created] = await tx
      .insert(labNotes)
      .values({
        projectNo,
        title: noteTitle,
        labNoteNumber: await nextLabNoteNumber(tx, config.timeZone),
        // The account that imported it holds it here; its authors there are kept by name.
        writerUserNo: user.userNo,
        importedAuthors: note.authors,
        version,
      })
      .returning();
    if (!created) throw new Error('imported note not created');
    await recordNoteWriter(tx, created.noteNo, user.userNo);
    const noteFiles = note.attachments.map((a) => ctx.byEntity.get(a.entityId)).filter((f): f is StagedFile => f !== undefined);
    for (const file of noteFiles) {
      await tx.insert(files).values({
        fileId: file.fileId,
        noteNo: created.noteNo,
        kind: file.kind,
        originName: file.originName,
        extension: file.extension,
        mimeType: file.mimeType,
        size: file.size,
        sha256: file.sha256,
        storagePath: file.storagePath,
        uploadedByUserNo: user.userNo,
      });
    }
    if (blocksHash)
      await tx
        .insert(noteVersions)
        .values({ noteNo: created.noteNo, version, blocks: savedBlocks, blocksHash, documentState: state, savedByUserNo: user.userNo });
    await tx.insert(documentUpdates).values({ documentName: noteDocumentName(created.noteNo), update: state });
    const origin = {
      archive: record.archiveName,
      dataset: note.datasetId,
      labNoteNumber: note.identifier,
      authors: note.authors,
      versions: note.versions.length,
      signatures: note.signatures.map((s) => ({
        signer: s.signer,
        printedName: s.printedName,
        meaning: s.meaning,
        signedAt: s.signedAt,
        version: s.version,
        hash: s.hash,
        status: s.status,
      })),
    };
    importedNotes.push({ noteNo: created.noteNo, labNoteNumber: created.labNoteNumber, title: noteTitle, original: origin });
    audits.push({
      actor,
      action: 'note.created',
      target: { type: 'note', id: created.noteNo },
      after: {
        projectNo,
        title: noteTitle,
        labNoteNumber: created.labNoteNumber,
        version,
        ...(blocksHash ? { blocksHash } : {}),
        files: noteFiles.map((f) => ({
          fileId: f.fileId,
          origin: f.originName,
          size: f.size,
          sha256: f.sha256,
          hashChecked: !record.uncheckedFiles.includes(f.entityId),
        })),
        imported: origin,
      },
      clientAddress: record.clientAddress,
    });
  }
  audits.push({
    actor,
    action: 'export.imported',
    target: { type: 'project', id: projectNo },
    after: {
      title,
      archive: record.archiveName,
      importNo,
      signed: record.signature.signed,
      keyId: record.signature.keyId,
      ...(record.signature.added ? { keyName: record.signature.added.name } : {}),
      // The signature itself and the hash it signs, as the import record keeps them to verify it later.
      ...(record.signature.minisig ? { minisig: record.signature.minisig } : {}),
      ...(record.signature.digest ? { metadataBlake2b: record.signature.digest.toString('hex') } : {}),
      notes: importedNotes,
      files: record.staged.length,
      skippedFiles: record.skippedFiles,
      uncheckedFiles: record.uncheckedFiles,
    },
    clientAddress: record.clientAddress,
  });
  // The files take their place before the commit; if the commit fails, the caller removes them again.
  for (const file of record.staged) await rename(file.partialPath, file.finalPath);
  // Audit records last: appending holds the chain's lock until commit, and others wait on it.
  for (const entry of audits) await appendAudit(tx, entry);
  return { projectNo, title, noteCount: plan.notes.length };
}
