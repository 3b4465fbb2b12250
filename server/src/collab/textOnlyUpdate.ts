import * as Y from 'yjs';
import { CONTENT_FIELD } from '@eln/shared';
import { formatProblem } from '@eln/shared/editor';

/**
 * Whether a Yjs update (already reduced to what the document lacks) only types or formats text inside
 * existing text, or deletes such text: then it cannot break a content rule, since no rule looks at
 * text, and the full check (a copy of the document) is skipped. A format counts only when the schema
 * knows its mark and attributes. This is the update of nearly every
 * keystroke. Changes outside the note's content fragment (the durability marks of DurableTracker, any
 * other shared type) are allowed beside it: no rule reads them. Anything else (new elements,
 * attributes, removed nodes) answers false.
 */
export function onlyEditsText(doc: Y.Doc, update: Uint8Array): boolean {
  const { structs, ds } = Y.decodeUpdate(update);
  const added = new Map<string, Y.Item>();
  for (const struct of structs) {
    if (!(struct instanceof Y.Item)) return false;
    added.set(key(struct.id), struct);
  }
  for (const item of added.values()) {
    if (!allowedItem(doc, item, added)) return false;
  }
  for (const [client, ranges] of ds.clients) {
    for (const range of ranges) {
      if (!deletesOnlyText(doc, client, range.clock, range.len, added)) return false;
    }
  }
  return true;
}

const key = (id: Y.ID) => `${id.client}:${id.clock}`;
/** Text, or a format the schema knows (an unknown mark or attribute takes the full check, which refuses it). */
const isTextContent = (item: Y.Item) =>
  item.content instanceof Y.ContentString || (item.content instanceof Y.ContentFormat && formatProblem(item.content.key, item.content.value) === null);

/** The type an item lives in, and whether it is a map entry; null when it cannot be told here. */
function placeOf(doc: Y.Doc, item: Y.Item, added: Map<string, Y.Item>, depth = 0): { type: Y.AbstractType<unknown> | 'outside'; mapEntry: boolean } | null {
  if (typeof item.parent === 'string') return item.parent === CONTENT_FIELD ? null : { type: 'outside', mapEntry: item.parentSub !== null };
  if (item.parent instanceof Y.ID) {
    const parent = existing(doc, item.parent);
    return parent?.content instanceof Y.ContentType ? { type: parent.content.type, mapEntry: item.parentSub !== null } : null;
  }
  if (item.parent instanceof Y.AbstractType) return { type: item.parent, mapEntry: item.parentSub !== null };
  // Encoded without its parent: it sits next to its origin, in the same type.
  const neighbour = item.origin ?? item.rightOrigin;
  if (!neighbour || depth > 10_000) return null;
  const next = added.get(key(neighbour)) ?? existing(doc, neighbour);
  return next ? placeOf(doc, next, added, depth + 1) : null;
}

function existing(doc: Y.Doc, id: Y.ID): Y.Item | null {
  if (Y.getState(doc.store, id.client) <= id.clock) return null;
  const struct = Y.getItem(doc.store, id);
  return struct instanceof Y.Item ? struct : null;
}

function allowedPlace(place: ReturnType<typeof placeOf>, item: Y.Item): boolean {
  if (!place) return false;
  if (place.type === 'outside' || !insideContent(place.type)) return true;
  return place.type instanceof Y.XmlText && !place.mapEntry && isTextContent(item);
}

/** Whether a type lies in the note's content fragment (the only part the content rules read). */
function insideContent(type: Y.AbstractType<unknown>): boolean {
  let root = type;
  for (let depth = 0; root._item && depth < 10_000; depth += 1) root = root._item.parent as Y.AbstractType<unknown>;
  return root.doc?.share.get(CONTENT_FIELD) === root;
}

function allowedItem(doc: Y.Doc, item: Y.Item, added: Map<string, Y.Item>): boolean {
  return allowedPlace(placeOf(doc, item, added), item);
}

/** Whether a deleted range holds only text items (or items deleted already), all of them known. */
function deletesOnlyText(doc: Y.Doc, client: number, clock: number, len: number, added: Map<string, Y.Item>): boolean {
  const structs = doc.store.clients.get(client) ?? [];
  let at = clock;
  const end = clock + len;
  if (at < Y.getState(doc.store, client)) {
    let index = Y.findIndexSS(structs, at);
    for (; index < structs.length && at < end; index += 1) {
      const struct = structs[index] as Y.AbstractStruct;
      if (struct instanceof Y.Item && !struct.deleted && !allowedItem(doc, struct, added)) return false;
      if (!(struct instanceof Y.Item) && !(struct instanceof Y.GC)) return false;
      at = struct.id.clock + struct.length;
    }
  }
  // The rest must be items this update adds.
  while (at < end) {
    const item = [...added.values()].find((candidate) => candidate.id.client === client && candidate.id.clock <= at && at < candidate.id.clock + candidate.length);
    if (!item) return false;
    at = item.id.clock + item.length;
  }
  return true;
}
