import type { AnyExtension, Extension, Node } from '@tiptap/core';
import { Blockquote } from '@tiptap/extension-blockquote';
import { Bold } from '@tiptap/extension-bold';
import { Code } from '@tiptap/extension-code';
import { CodeBlock } from '@tiptap/extension-code-block';
import { Document } from '@tiptap/extension-document';
import { HardBreak } from '@tiptap/extension-hard-break';
import { Heading } from '@tiptap/extension-heading';
import { HorizontalRule } from '@tiptap/extension-horizontal-rule';
import { Italic } from '@tiptap/extension-italic';
import { BulletList, ListItem, ListKeymap, OrderedList } from '@tiptap/extension-list';
import { Paragraph } from '@tiptap/extension-paragraph';
import { Strike } from '@tiptap/extension-strike';
import { TableKit } from '@tiptap/extension-table';
import { Text } from '@tiptap/extension-text';
import { Color, TextStyle } from '@tiptap/extension-text-style';
import { Underline } from '@tiptap/extension-underline';
import { Dropcursor, Gapcursor } from '@tiptap/extensions';
import { BlockUidAttribute } from './blockUid.js';
import { ChartNode, DateNode, FileNode, ImageNode, MentionNode, SchemaBlockNode } from './nodes.js';
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
  mention?: (base: typeof MentionNode) => Node;
  blockUid?: (base: typeof BlockUidAttribute) => Extension;
}

/**
 * The text extensions: StarterKit's, in StarterKit's order (the order makes the schema's), less the three
 * the notes turn off: its own undo/redo (collaboration brings one that only undoes this user's edits), the
 * trailing node (two clients would both add one) and links. Listed one by one because
 * `StarterKit.configure({ undoRedo: false, trailingNode: false, link: false })`, which builds the same
 * schema (schema.test.ts compares the two), still imports all three, with prosemirror-history and
 * linkifyjs, into every bundle.
 */
export const NOTE_TEXT_EXTENSIONS: readonly AnyExtension[] = [
  Bold,
  Blockquote,
  BulletList,
  Code,
  CodeBlock,
  Document,
  Dropcursor,
  Gapcursor,
  HardBreak,
  Heading,
  HorizontalRule,
  Italic,
  ListItem,
  ListKeymap,
  OrderedList,
  Paragraph,
  Strike,
  Text,
  Underline,
];

/**
 * The editor's schema, the same for lab notes and templates, in browser and server: StarterKit's text
 * (above) with underline and strike, text colour, tables with a code list per cell, charts, images,
 * files, dates and schema blocks, mentions of people inside text, and a blockUid on every block node.
 */
export function noteExtensions(additions: BrowserAdditions = {}): AnyExtension[] {
  return [
    ...NOTE_TEXT_EXTENSIONS,
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
    additions.mention ? additions.mention(MentionNode) : MentionNode,
    additions.blockUid ? additions.blockUid(BlockUidAttribute) : BlockUidAttribute,
  ];
}
