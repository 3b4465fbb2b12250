import { z } from 'zod';
import { canonicalJson, ERR, LIMITS } from '@eln/shared';
import { AppError } from '../../http/errors.js';
import { clean } from './importContent.js';
import { DRAFT_FILE, METADATA_FILE, PROJECT_GENRE, SIGNATURE_GENRES, type Entity } from './crate.js';

/**
 * What an imported archive's crate says, read into a plan before anything is written: the project, its
 * notes (leaf Datasets), each note's files, saved versions (this notebook's archives), text (another
 * notebook's), comments and signatures.
 */

const crateShape = z.object({
  '@context': z.unknown(),
  '@graph': z.array(z.looseObject({ '@id': z.string().min(1), '@type': z.union([z.string(), z.array(z.string())]) })),
});

export class Crate {
  private constructor(
    readonly entities: ReadonlyMap<string, Entity>,
    readonly root: Entity,
  ) {}

  /** Reads ro-crate-metadata.json; 8003 for anything that is not a crate with its descriptor and root Dataset. */
  static read(bytes: Buffer): Crate {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new AppError(ERR.elnMetadata, { cause: error, data: { detail: 'not JSON' } });
    }
    const shape = crateShape.safeParse(parsed);
    if (!shape.success) throw new AppError(ERR.elnMetadata, { data: { detail: 'no @graph of entities with @id and @type' } });
    const entities = new Map<string, Entity>();
    for (const entity of shape.data['@graph']) {
      const earlier = entities.get(entity['@id']);
      if (earlier && !sameRepeat(earlier, entity))
        throw new AppError(ERR.elnMetadata, { data: { detail: `two entities ${entity['@id']}` } });
      if (!earlier) entities.set(entity['@id'], entity);
    }
    const descriptor = entities.get(METADATA_FILE);
    const rootId = descriptor ? refIds(descriptor, 'about')[0] : undefined;
    const root = rootId ? entities.get(rootId) : undefined;
    if (!root || !isA(root, 'Dataset')) throw new AppError(ERR.elnMetadata, { data: { detail: 'no descriptor about a root Dataset' } });
    return new Crate(entities, root);
  }

  get(id: string): Entity | undefined {
    return this.entities.get(id);
  }

  /** The entities a property refers to (`{"@id": ...}` or a list of them), those the crate holds. */
  refs(entity: Entity, property: string): Entity[] {
    return refIds(entity, property)
      .map((id) => this.entities.get(id))
      .filter((found): found is Entity => found !== undefined);
  }

  /** A Person's (or Organization's) name, for the history lines. */
  nameOf(entity: Entity, property: string): string | undefined {
    const [who] = this.refs(entity, property);
    return who ? text(who, 'name') : undefined;
  }

  /** Every File entity that names a file inside the archive (not a web address, not a fragment). */
  localFiles(): Array<{ entity: Entity; path: string }> {
    const byPath = new Map<string, string>();
    return [...this.entities.values()]
      .filter((e) => isA(e, 'File'))
      .flatMap((entity) => {
        const path = localPath(entity['@id']);
        if (!path) return [];
        // `a.bin`, `./a.bin` and `a%2Ebin` name one entry: listed under several ids, one packed entry would be
        // unpacked and checked again and again, past every limit the archive's directory was checked against.
        if (byPath.has(path)) throw new AppError(ERR.elnMetadata, { data: { detail: `two File entities name ${path}` } });
        byPath.set(path, entity['@id']);
        return [{ entity, path }];
      });
  }
}

/**
 * Whether a repeated @id may stand as its first occurrence. The same entity written twice (datalab) is
 * tolerated. Two that differ are refused where the import relies on them: the descriptor, Datasets and
 * Files (what is imported and what each file is checked against). A differing repeat of context (a
 * Person, an Action, an Organization) is one more description of the same thing; the first is kept.
 */
function sameRepeat(earlier: Entity, later: Entity): boolean {
  if (canonicalJson(earlier) === canonicalJson(later)) return true;
  const relied = (e: Entity) => e['@id'] === METADATA_FILE || isA(e, 'Dataset') || isA(e, 'File');
  return !relied(earlier) && !relied(later);
}

export function isA(entity: Entity, type: string): boolean {
  return ([] as string[]).concat(entity['@type']).includes(type);
}

export function refIds(entity: Entity, property: string): string[] {
  const value = entity[property];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.flatMap((item) =>
    item && typeof item === 'object' && typeof (item as { '@id'?: unknown })['@id'] === 'string'
      ? [(item as { '@id': string })['@id']]
      : [],
  );
}

/** A property as text (numbers too: eLabFTW writes contentSize as a number); undefined when absent or empty. */
export function text(entity: Entity, property: string): string | undefined {
  const value = entity[property];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/**
 * The path inside the root folder a data entity's @id names (`./a/b.jpg` → `a/b.jpg`), percent-decoded
 * where it was encoded; null for web addresses and fragments, which name nothing in the archive.
 */
export function localPath(id: string): string | null {
  if (id.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(id)) return null;
  const trimmed = id.replace(/^\.\//, '');
  let decoded = trimmed;
  try {
    decoded = decodeURIComponent(trimmed);
  } catch {
    // Not percent-encoded (a literal % in the name): the @id is the path.
  }
  const path = decoded.split('/').filter(Boolean).join('/');
  return path || null;
}

export interface AttachmentPlan {
  entityId: string;
  path: string;
  name: string;
  /** The file's id in the notebook it came from (ours): blocks name it. */
  originalFileId: string | null;
}

export interface SignaturePlan {
  signer: string;
  meaning: string;
  printedName: string | null;
  status: string | null;
  signedAt: string | null;
  version: string | null;
  hash: string | null;
  text: string | null;
}

export interface NotePlan {
  datasetId: string;
  name: string;
  identifier: string | null;
  status: string | null;
  /** Who wrote it there, by name (the Dataset's `author` people): kept as names, not matched to accounts. */
  authors: string[];
  /** Never saved there (this notebook's: no version, `version` 0): it arrives unsaved, its content a live draft. */
  unsaved: boolean;
  /** This notebook's archive: the latest saved version's blocks file, and every version's entity. */
  latestVersion: { entityId: string; path: string } | null;
  /** This notebook's archive, a note never saved: its draft's blocks file. */
  draft: { entityId: string; path: string } | null;
  versions: Array<{ version: string; savedAt: string | null; savedBy: string | null }>;
  /** When it was created and last changed there, as the archive writes them. */
  created: string | null;
  modified: string | null;
  /** Another notebook's note: its text (HTML or plain). */
  text: string | null;
  /** Another notebook's note: its metadata (`variableMeasured` PropertyValues) as name, value and unit. */
  properties: Array<[string, string, string]>;
  template: { name: string; version: string | null } | null;
  attachments: AttachmentPlan[];
  signatures: SignaturePlan[];
  comments: Array<{ author: string | null; at: string | null; text: string }>;
}

export interface ImportPlan {
  projectName: string | null;
  projectDescription: string | null;
  notes: NotePlan[];
}

const VERSION_FILE_NAME = /^v(\d+)\.json$/;
/** How deep Datasets may nest before the rest is left out (a crate could otherwise send the walk round forever). */
const MAX_DEPTH = 8;

/**
 * The project and its notes. The project is the root's one Dataset that holds Datasets or says it is a
 * project (this notebook's `project/`, empty or not), or else the root itself (eLabFTW lists experiments at the top); its notes are the Datasets
 * below it that hold no Datasets, or that hold files or text of their own.
 */
export function planImport(crate: Crate): ImportPlan {
  const topDatasets = crate.refs(crate.root, 'hasPart').filter((e) => isA(e, 'Dataset'));
  const holdsDatasets = (e: Entity) => crate.refs(e, 'hasPart').some((part) => isA(part, 'Dataset'));
  const [only] = topDatasets;
  const project = topDatasets.length === 1 && only && (holdsDatasets(only) || text(only, 'genre') === PROJECT_GENRE) ? only : crate.root;
  const leaves: Entity[] = [];
  const seen = new Set<string>();
  const walk = (dataset: Entity, depth: number) => {
    if (seen.has(dataset['@id']) || depth > MAX_DEPTH) return;
    seen.add(dataset['@id']);
    const children = crate.refs(dataset, 'hasPart').filter((e) => isA(e, 'Dataset'));
    // A Dataset that holds Datasets is a note too when it has files or text of its own (RSpace's documents link others).
    const ownContent = crate.refs(dataset, 'hasPart').some((e) => isA(e, 'File')) || text(dataset, 'text') !== undefined;
    if (dataset !== project && (!children.length || ownContent)) leaves.push(dataset);
    for (const child of children) walk(child, depth + 1);
  };
  walk(project, 0);
  const notes = leaves.map((dataset) => planNote(crate, dataset));
  refuseSharedFiles(notes);
  return { projectName: text(project, 'name') ?? null, projectDescription: text(project, 'description') ?? null, notes };
}

/** Each file belongs to one note: one shared by several would be read and stored once per note that lists it. */
function refuseSharedFiles(notes: readonly NotePlan[]): void {
  const owners = new Set<string>();
  for (const note of notes) {
    for (const entityId of new Set([
      ...(note.latestVersion ? [note.latestVersion.entityId] : []),
      ...(note.draft ? [note.draft.entityId] : []),
      ...note.attachments.map((a) => a.entityId),
    ])) {
      if (owners.has(entityId)) throw new AppError(ERR.elnMetadata, { data: { detail: `${entityId} belongs to two notes` } });
      owners.add(entityId);
    }
  }
}

/** Who a Person (or Organization) of a crate is by name: `name`, else given and family name (eLabFTW). */
function personName(entity: Entity): string | undefined {
  return (
    text(entity, 'name')?.trim() ||
    [text(entity, 'givenName'), text(entity, 'familyName')]
      .filter((part) => part !== undefined)
      .map((part) => part.trim())
      .join(' ') ||
    undefined
  );
}

/** Authors a note keeps: each name once, as text a name field holds, at most MAX_AUTHORS of them. */
const MAX_AUTHORS = 20;

function authorsOf(crate: Crate, dataset: Entity): string[] {
  const names = [...crate.refs(dataset, 'author'), ...crate.refs(dataset, 'authors')]
    .map(personName)
    .filter((name): name is string => name !== undefined)
    .map((name) => Array.from(clean(name)).slice(0, LIMITS.userName).join('').trim())
    .filter(Boolean);
  return [...new Set(names)].slice(0, MAX_AUTHORS);
}

function planNote(crate: Crate, dataset: Entity): NotePlan {
  const files = crate.refs(dataset, 'hasPart').filter((e) => isA(e, 'File'));
  const versionFiles = files
    .map((entity) => ({ entity, match: VERSION_FILE_NAME.exec(text(entity, 'name') ?? '') }))
    .filter(({ entity, match }) => match && (text(entity, 'encodingFormat') ?? '').includes('json'))
    .map(({ entity, match }) => ({ entity, version: Number(match![1]) }))
    .sort((a, b) => a.version - b.version);
  const draftEntity = versionFiles.length
    ? undefined
    : files.find((entity) => text(entity, 'name') === DRAFT_FILE && (text(entity, 'encodingFormat') ?? '').includes('json'));
  const draftPath = draftEntity ? localPath(draftEntity['@id']) : null;
  const ours = versionFiles.length > 0 || draftEntity !== undefined;
  const latest = versionFiles.at(-1);
  const latestPath = latest ? localPath(latest.entity['@id']) : null;
  const attachments = files
    .filter((entity) => !ours || /(^|\/)files\/[^/]+$/.test(localPath(entity['@id']) ?? ''))
    .flatMap((entity): AttachmentPlan[] => {
      const path = localPath(entity['@id']);
      if (!path) return [];
      return [
        {
          entityId: entity['@id'],
          path,
          name: text(entity, 'name') ?? path.split('/').at(-1) ?? 'file',
          originalFileId: ours ? (text(entity, 'identifier') ?? null) : null,
        },
      ];
    });
  const [template] = crate.refs(dataset, 'isBasedOn');
  const signatures: SignaturePlan[] = [];
  const comments: NotePlan['comments'] = [];
  for (const comment of crate.refs(dataset, 'comment')) {
    const genre = text(comment, 'genre');
    const meaning = Object.entries(SIGNATURE_GENRES).find(([, value]) => value === genre)?.[0];
    if (meaning) {
      signatures.push({
        signer: crate.nameOf(comment, 'author') ?? '',
        meaning,
        printedName: text(comment, 'alternateName') ?? null,
        status: text(comment, 'creativeWorkStatus') ?? null,
        signedAt: text(comment, 'dateCreated') ?? null,
        version: text(comment, 'version') ?? null,
        hash: text(comment, 'identifier') ?? null,
        text: text(comment, 'text') ?? null,
      });
    } else {
      const body = text(comment, 'text');
      if (body) comments.push({ author: crate.nameOf(comment, 'author') ?? null, at: text(comment, 'dateCreated') ?? null, text: body });
    }
  }
  return {
    datasetId: dataset['@id'],
    // Unnamed (RSpace), a note is called by its folder.
    name: text(dataset, 'name') ?? localPath(dataset['@id'])?.split('/').at(-1) ?? '',
    identifier: text(dataset, 'identifier') ?? null,
    status: text(dataset, 'creativeWorkStatus') ?? null,
    authors: authorsOf(crate, dataset),
    unsaved: !versionFiles.length && (draftEntity !== undefined || text(dataset, 'version') === '0'),
    latestVersion: latest && latestPath ? { entityId: latest.entity['@id'], path: latestPath } : null,
    draft: draftEntity && draftPath ? { entityId: draftEntity['@id'], path: draftPath } : null,
    versions: versionFiles.map(({ entity, version }) => ({
      version: String(version),
      savedAt: text(entity, 'dateCreated') ?? null,
      savedBy: crate.nameOf(entity, 'author') ?? null,
    })),
    created: text(dataset, 'dateCreated') ?? null,
    modified: text(dataset, 'dateModified') ?? null,
    text: ours ? null : (text(dataset, 'text') ?? null),
    properties: ours ? [] : propertiesOf(crate, dataset),
    template: template ? { name: text(template, 'name') ?? '', version: text(template, 'version') ?? null } : null,
    attachments,
    signatures,
    comments,
  };
}

/** Rows a properties table holds at most (its header row aside): the editor's tables are that large. */
const MAX_PROPERTIES = LIMITS.tableMaxSide - 1;

/** A PropertyValue's value as text: a number, a string, or a list or object written out as JSON. */
function propertyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** A Dataset's metadata (eLabFTW's extra fields, Kadi4Mat's extras, PASTA's and SampleDB's properties). */
function propertiesOf(crate: Crate, dataset: Entity): Array<[string, string, string]> {
  const inline = ([] as unknown[])
    .concat(dataset.variableMeasured ?? [])
    .filter((item): item is Entity => !!item && typeof item === 'object' && !('@id' in item && Object.keys(item).length === 1));
  return [...crate.refs(dataset, 'variableMeasured'), ...inline]
    .map((property): [string, string, string] => [
      clean(text(property, 'name') ?? text(property, 'propertyID') ?? ''),
      clean(propertyValue(property.value).slice(0, 2000)),
      clean(text(property, 'unitText') ?? text(property, 'unitCode') ?? ''),
    ])
    .filter(([name, value]) => name || value)
    .slice(0, MAX_PROPERTIES);
}
