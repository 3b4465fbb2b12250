import type { AnyExtension, Extension, Node } from '@tiptap/core';
import { TableKit } from '@tiptap/extension-table';
import { Color, TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import { BlockUidAttribute } from './blockUid.js';
import { ChartNode, DateNode, FileNode, ImageNode, SchemaBlockNode } from './nodes.js';
import { NoteTableCell, NoteTableHeader } from './tableCells.js';

/**
 * What the browser adds to the shared definitions: a view for each atom node, and the plugin that
 * assigns block IDs. Each takes the shared definition and returns it extended, so the schema stays one.
 */
export interface BrowserAdditions {
  chart?: (base: typeof ChartNode) => Node;
  image?: (base: typeof ImageNode) => Node;
  file?: (base: typeof FileNode) => Node;
  date?: (base: typeof DateNode) => Node;
  schemaBlock?: (base: typeof SchemaBlockNode) => Node;
  blockUid?: (base: typeof BlockUidAttribute) => Extension;
}

/**
 * The editor's schema, the same for lab notes and templates, in browser and server: StarterKit text (its
 * own undo/redo is off, since collaboration brings one that only undoes this user's edits; no trailing
 * node, which two clients would both add; no links), underline and strike, text colour, tables with a
 * code list per cell, charts, images, files, dates and schema blocks, and a blockUid on every block node.
 */
export function noteExtensions(additions: BrowserAdditions = {}): AnyExtension[] {
  return [
    StarterKit.configure({ undoRedo: false, link: false, trailingNode: false }),
    TextStyle,
    Color,
    TableKit.configure({ table: { resizable: false, allowTableNodeSelection: false }, tableCell: false, tableHeader: false }),
    NoteTableCell,
    NoteTableHeader,
    additions.chart ? additions.chart(ChartNode) : ChartNode,
    additions.image ? additions.image(ImageNode) : ImageNode,
    additions.file ? additions.file(FileNode) : FileNode,
    additions.date ? additions.date(DateNode) : DateNode,
    additions.schemaBlock ? additions.schemaBlock(SchemaBlockNode) : SchemaBlockNode,
    additions.blockUid ? additions.blockUid(BlockUidAttribute) : BlockUidAttribute,
  ];
}
