import { prosemirrorJSONToYDoc } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { CONTENT_FIELD, type PmNode } from '@eln/shared';
import { noteSchema } from '@eln/shared/editor';
import type { AuthUser } from '../auth/authUser.js';
import { contentOfState } from '../collab/commands/liveDocuments.js';
import type { Queryable, Tx } from '../db/client.js';
import { files } from '../db/schema.js';
import { enforce } from '../http/verdicts.js';
import { canUseTemplate, USE_REFUSALS } from './policy.js';
import { approvedVersionOf } from './presenters.js';
import { approvedContent, requireReadableTemplate } from './queries.js';

/** What a note made from a template starts with, and what it records of where it came from. */
export interface TemplateStart {
  templateNo: number;
  revision: number;
  version: string;
  blocksHash: string;
  /** The approved content (ProseMirror JSON); its files still the template's. */
  content: PmNode;
}

/** Nodes that name an uploaded file by `fileId`. */
const FILE_NODES = new Set(['image', 'fileAttachment']);

function fileIdsOf(node: PmNode): string[] {
  const own = FILE_NODES.has(node.type) && typeof node.attrs?.fileId === 'string' ? [node.attrs.fileId] : [];
  return [...own, ...(node.content ?? []).flatMap(fileIdsOf)];
}

function withFileIds(node: PmNode, renamed: ReadonlyMap<string, string>): PmNode {
  const fileId = FILE_NODES.has(node.type) && typeof node.attrs?.fileId === 'string' ? renamed.get(node.attrs.fileId) : undefined;
  return {
    ...node,
    ...(fileId ? { attrs: { ...node.attrs, fileId } } : {}),
    ...(node.content ? { content: node.content.map((child) => withFileIds(child, renamed)) } : {}),
  };
}

/**
 * The note's first live state, made in its creating transaction: each of the template's files it shows
 * gets a row of the note's own (the stored bytes are shared; they never change), so the note's readers
 * read them whatever becomes of the template. The template's editing history does not come along.
 */
export async function initialNoteState(tx: Tx, start: TemplateStart, noteNo: number): Promise<Uint8Array> {
  const ids = [...new Set(fileIdsOf(start.content))];
  const owned = ids.length
    ? await tx
        .select()
        .from(files)
        .where(and(inArray(files.fileId, ids), eq(files.templateNo, start.templateNo)))
    : [];
  const renamed = new Map<string, string>();
  for (const file of owned) {
    const fileId = randomUUID();
    renamed.set(file.fileId, fileId);
    await tx.insert(files).values({ ...file, fileId, noteNo, templateNo: null, createdAt: new Date() });
  }
  const content = renamed.size ? withFileIds(start.content, renamed) : start.content;
  return Y.encodeStateAsUpdate(prosemirrorJSONToYDoc(noteSchema(), content, CONTENT_FIELD));
}

/**
 * The latest approved version of a template the caller can read, ready to start a note from: 9002 for a
 * deleted template (or a draft hidden from the caller), 7008 for one never approved.
 */
export async function templateStart(q: Queryable, user: AuthUser, templateNo: number): Promise<TemplateStart> {
  const template = await requireReadableTemplate(q, user, templateNo);
  enforce(canUseTemplate(template), USE_REFUSALS);
  const approved = await approvedContent(q, template);
  if (!approved) throw new Error(`template ${templateNo} names an approved revision that does not exist`);
  const { revision } = approved;
  return {
    templateNo,
    revision: revision.revision,
    version: approvedVersionOf(revision),
    blocksHash: revision.blocksHash,
    content: contentOfState(new Uint8Array(revision.documentState)),
  };
}
