import type { AnyExtension, Node } from '@tiptap/core';
import { TableCell, TableHeader, TableKit } from '@tiptap/extension-table';
import { Color, TextStyle } from '@tiptap/extension-text-style';
import StarterKit from '@tiptap/starter-kit';
import { BlockUid } from './blockUid';
import { ChartNode, DateNode, FileNode, ImageNode } from './nodes';
import { TableGuard, type TableViolation } from './tableGuard';

/** A cell's code list ("dropbox"): one per cell, kept as the cell attribute `dropbox`. */
const dropboxAttribute = {
  dropbox: {
    default: null,
    parseHTML: (element: HTMLElement) => element.getAttribute('data-dropbox') || null,
    renderHTML: (attributes: Record<string, unknown>) =>
      typeof attributes.dropbox === 'string' && attributes.dropbox ? { 'data-dropbox': attributes.dropbox } : {},
  },
};

export const NoteTableCell = TableCell.extend({
  addAttributes() {
    return { ...this.parent?.(), ...dropboxAttribute };
  },
});

export const NoteTableHeader = TableHeader.extend({
  addAttributes() {
    return { ...this.parent?.(), ...dropboxAttribute };
  },
});

/** Views for the atom nodes; without them (tests, the server) the nodes render as plain HTML. */
export interface NodeViews {
  chart?: (base: typeof ChartNode) => Node;
  image?: (base: typeof ImageNode) => Node;
  file?: (base: typeof FileNode) => Node;
  date?: (base: typeof DateNode) => Node;
}

/**
 * The editor's schema, the same for lab notes and templates: StarterKit text (its own undo/redo is off,
 * since collaboration brings one that only undoes this user's edits; no trailing node, which two clients
 * would both add), underline and strike, text colour, tables with a code list per cell, charts, images,
 * files and dates, a guard on the table rules, and a stable blockUid on every top-level block.
 */
export function noteExtensions(views: NodeViews = {}, onTableRefused: (violation: TableViolation) => void = () => undefined): AnyExtension[] {
  return [
    StarterKit.configure({ undoRedo: false, link: false, trailingNode: false }),
    TextStyle,
    Color,
    TableKit.configure({ table: { resizable: false, allowTableNodeSelection: false }, tableCell: false, tableHeader: false }),
    NoteTableCell,
    NoteTableHeader,
    views.chart ? views.chart(ChartNode) : ChartNode,
    views.image ? views.image(ImageNode) : ImageNode,
    views.file ? views.file(FileNode) : FileNode,
    views.date ? views.date(DateNode) : DateNode,
    TableGuard.configure({ onRefuse: onTableRefused }),
    BlockUid,
  ];
}
