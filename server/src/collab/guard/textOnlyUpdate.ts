import * as Y from 'yjs';
import { CONTENT_FIELD, NODE } from '@eln/shared';
import { formatsFit, holdsText } from '@eln/shared/editor';
import * as decoding from 'lib0/decoding';
import { holdsPending } from './pendingParts.js';

/**
 * Whether a Yjs update, applied to `doc` as sent, only types text inside existing text of a node that
 * holds text (with formats it allows) or deletes such text: then it cannot break a content rule, since
 * no rule looks at text, nor the schema, and the full check (the
 * update tried on a copy of the document) is skipped. This is the update of nearly every keystroke.
 * Changes outside the note's content fragment (the durability marks of DurableTracker, any other shared
 * type) are allowed beside it: no rule reads them. Anything else (new elements, attributes, formats,
 * removed nodes) answers false, and so does any update whose application could differ from what its
 * structs say (see `appliesAsRead`).
 */
export function onlyEditsText(doc: Y.Doc, update: Uint8Array): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  if (!appliesAsRead(doc, update, structs)) return false;
  const added = new Map<string, Y.Item>();
  const holders = new Map<Y.AbstractType<unknown>, Y.Item>();
  for (const struct of structs) {
    added.set(key(struct.id), struct);
    if (struct.content instanceof Y.ContentType) holders.set(struct.content.type, struct);
  }
  // Typed as any type: Yjs's event typing makes a fragment incomparable with AbstractType<unknown>.
  const context: Context = { doc, added, holders, root: doc.getXmlFragment(CONTENT_FIELD) as unknown as Y.AbstractType<unknown> };
  for (const item of added.values()) {
    if (!allowedItem(context, item)) return false;
  }
  for (const [client, ranges] of ds.clients) {
    for (const range of ranges) {
      if (!deletesOnlyText(context, client, range.clock, range.len)) return false;
    }
  }
  return true;
}

/**
 * Whether applying the update integrates exactly its structs, at once, where their references say.
 * Yjs applies only the last section of a client given twice, keeps a struct whose predecessors are
 * missing pending (placed later, by whatever update fills the gap), and re-reads pending structs and
 * deletes on every update. So: the document holds nothing pending; each client appears in one section
 * (as many sections as clients), which starts at the document's clock for that client; every struct is
 * an item; and every ID an item refers to (origin, right origin, parent) is in the document or earlier
 * in its own client's section (and none is empty). A crafted update breaking any of this goes to the
 * full check, which applies it as sent.
 */
function appliesAsRead(doc: Y.Doc, update: Uint8Array, structs: Array<Y.Item | Y.GC | Y.Skip>): structs is Y.Item[] {
  if (holdsPending(doc)) return false;
  const sectionStarts = new Set<number>();
  for (const struct of structs) {
    if (!(struct instanceof Y.Item) || struct.length === 0) return false;
    const { client, clock } = struct.id;
    if (!sectionStarts.has(client)) {
      if (clock !== Y.getState(doc.store, client)) return false;
      sectionStarts.add(client);
    }
    const references = [struct.origin, struct.rightOrigin, struct.parent instanceof Y.ID ? struct.parent : null];
    if (!references.every((id) => id === null || id.clock < Y.getState(doc.store, id.client) || (id.client === client && id.clock < clock)))
      return false;
  }
  // The update's first number is its count of client sections.
  return decoding.readVarUint(decoding.createDecoder(update)) === sectionStarts.size;
}

interface Context {
  doc: Y.Doc;
  /** The items the update adds, by their first ID. */
  added: Map<string, Y.Item>;
  /** The item holding each type the update creates (a new type is not integrated: it has no `_item`). */
  holders: Map<Y.AbstractType<unknown>, Y.Item>;
  /** The note's content fragment. */
  root: Y.AbstractType<unknown>;
}

/** Where an item lives: its type, and its key when it is a map entry (an element's attribute). */
type Place = { type: Y.AbstractType<unknown> | 'outside'; mapEntry: boolean; sub: string | null };

const key = (id: Y.ID) => `${id.client}:${id.clock}`;
/** Text. A format takes the full check: whether a mark may stand there depends on the node holding the text. */
const isTextContent = (item: Y.Item) => item.content instanceof Y.ContentString;

/** The type an item lives in, and whether it is a map entry; null when it cannot be told here. */
function placeOf(context: Context, item: Y.Item, depth = 0): Place | null {
  const sub = item.parentSub;
  const mapEntry = sub !== null;
  if (typeof item.parent === 'string')
    return item.parent === CONTENT_FIELD ? { type: context.root, mapEntry, sub } : { type: 'outside', mapEntry, sub };
  if (item.parent instanceof Y.ID) {
    const parent = context.added.get(key(item.parent)) ?? existing(context.doc, item.parent);
    return parent?.content instanceof Y.ContentType ? { type: parent.content.type, mapEntry, sub } : null;
  }
  if (item.parent instanceof Y.AbstractType) return { type: item.parent, mapEntry, sub };
  // Encoded without its parent (and key): it sits next to its origin, in the same type (and key).
  const neighbour = item.origin ?? item.rightOrigin;
  if (!neighbour || depth > 10_000) return null;
  const next = context.added.get(key(neighbour)) ?? existing(context.doc, neighbour);
  return next ? placeOf(context, next, depth + 1) : null;
}

function existing(doc: Y.Doc, id: Y.ID): Y.Item | null {
  if (Y.getState(doc.store, id.client) <= id.clock) return null;
  const struct = Y.getItem(doc.store, id);
  return struct instanceof Y.Item ? struct : null;
}

/** The type a type lives in (for a type this update creates, found through the item holding it). */
function parentTypeOf(context: Context, type: Y.AbstractType<unknown>): Y.AbstractType<unknown> | 'outside' | null {
  if (type._item) return type._item.parent as Y.AbstractType<unknown>;
  const holder = context.holders.get(type);
  return holder ? (placeOf(context, holder)?.type ?? null) : null;
}

/** Whether a type lies in the note's content fragment (the only part the content rules read). */
function insideContent(context: Context, type: Y.AbstractType<unknown>): boolean {
  let current: Y.AbstractType<unknown> | 'outside' | null = type;
  for (let depth = 0; current && current !== 'outside' && depth < 10_000; depth += 1) {
    if (current === context.root) return true;
    if (!current._item && !context.holders.has(current)) return current.doc?.share.get(CONTENT_FIELD) === current;
    current = parentTypeOf(context, current);
  }
  return false;
}

const isParagraph = (type: Y.AbstractType<unknown>) => type instanceof Y.XmlElement && type.nodeName === NODE.paragraph;
const isTopParagraph = (context: Context, type: Y.AbstractType<unknown>) =>
  isParagraph(type) && parentTypeOf(context, type) === context.root;

/**
 * What a paragraph at the top of the note may take without the full check: a new paragraph there, its
 * text nodes, its blockUid (a string). No rule reads a paragraph, and the schema allows it anywhere at
 * the top; this is what pressing Enter, adding and deleting paragraphs send.
 */
function allowedParagraphPart(context: Context, place: Place & { type: Y.AbstractType<unknown> }, item: Y.Item): boolean {
  if (place.type === context.root) return !place.mapEntry && item.content instanceof Y.ContentType && isParagraph(item.content.type);
  if (!isTopParagraph(context, place.type)) return false;
  if (place.mapEntry)
    return place.sub === 'blockUid' && item.content instanceof Y.ContentAny && item.content.arr.every((value) => typeof value === 'string');
  return item.content instanceof Y.ContentType && item.content.type instanceof Y.XmlText;
}

/**
 * Whether any text typed into this text node fits the schema: the node holding it holds text, and allows
 * every format the text node carries, all together (text takes the formats before it, even ones that
 * cover no text yet).
 */
function textMayGrow(context: Context, text: Y.AbstractType<unknown>): boolean {
  // A child of its element, not one of its attributes.
  const item = text._item ?? context.holders.get(text);
  const place = item ? placeOf(context, item) : null;
  if (!place || place.mapEntry) return false;
  const holder = place.type;
  if (!(holder instanceof Y.XmlElement) || !holdsText(holder.nodeName)) return false;
  const formats: Array<[string, unknown]> = [];
  for (let part = text._start; part; part = part.right) {
    if (part.content instanceof Y.ContentFormat && !part.deleted) formats.push([part.content.key, part.content.value]);
  }
  return formatsFit(holder.nodeName, formats);
}

function allowedItem(context: Context, item: Y.Item): boolean {
  const place = placeOf(context, item);
  if (!place) return false;
  if (place.type === 'outside' || !insideContent(context, place.type)) return true;
  // `type` is tested and `place.type` passed: narrowed to XmlText, Yjs's typing no longer passes for AbstractType<unknown>.
  const type = place.type;
  if (type instanceof Y.XmlText && !place.mapEntry && isTextContent(item)) return textMayGrow(context, place.type);
  return allowedParagraphPart(context, place as Place & { type: Y.AbstractType<unknown> }, item);
}

/** Whether a deleted range holds only allowed items (or items deleted already), all of them known. */
function deletesOnlyText(context: Context, client: number, clock: number, len: number): boolean {
  const { doc, added } = context;
  const structs = doc.store.clients.get(client) ?? [];
  let at = clock;
  const end = clock + len;
  if (at < Y.getState(doc.store, client)) {
    let index = Y.findIndexSS(structs, at);
    for (; index < structs.length && at < end; index += 1) {
      const struct = structs[index] as Y.AbstractStruct;
      if (struct instanceof Y.Item && !struct.deleted && !allowedItem(context, struct)) return false;
      if (!(struct instanceof Y.Item) && !(struct instanceof Y.GC)) return false;
      at = struct.id.clock + struct.length;
    }
  }
  // The rest must be items this update adds.
  while (at < end) {
    const item = [...added.values()].find(
      (candidate) => candidate.id.client === client && candidate.id.clock <= at && at < candidate.id.clock + candidate.length,
    );
    if (!item) return false;
    at = item.id.clock + item.length;
  }
  return true;
}
