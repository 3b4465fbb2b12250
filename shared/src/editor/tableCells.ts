import { TableCell, TableHeader } from '@tiptap/extension-table';
import type { AttributeSource } from './nodes.js';

/** The HTML form of a cell's dropbox: its reference as JSON (the older form, a plain title, as it is). */
function parseDropbox(element: AttributeSource): unknown {
  const stored = element.getAttribute('data-dropbox');
  if (!stored) return null;
  try {
    const value: unknown = JSON.parse(stored);
    return typeof value === 'object' && value !== null ? value : stored;
  } catch {
    return stored;
  }
}

/**
 * A cell's dropbox (`CellDropbox` in `@eln/shared`): one per cell, kept as the cell attribute `dropbox`.
 * Copied with the cell, so a pasted cell keeps its list and its choice; the content rules judge the value.
 */
const dropboxAttribute = {
  dropbox: {
    default: null,
    parseHTML: parseDropbox,
    renderHTML: (attributes: Record<string, unknown>) => {
      const { dropbox } = attributes;
      if (typeof dropbox === 'string') return dropbox ? { 'data-dropbox': dropbox } : {};
      return dropbox && typeof dropbox === 'object' ? { 'data-dropbox': JSON.stringify(dropbox) } : {};
    },
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
