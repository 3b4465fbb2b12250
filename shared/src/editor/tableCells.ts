import { TableCell, TableHeader } from '@tiptap/extension-table';
import type { AttributeSource } from './nodes.js';

/** A cell's code list ("dropbox"): one per cell, kept as the cell attribute `dropbox`. */
const dropboxAttribute = {
  dropbox: {
    default: null,
    parseHTML: (element: AttributeSource) => element.getAttribute('data-dropbox') || null,
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
