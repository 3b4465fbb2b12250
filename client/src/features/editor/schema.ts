import type { AnyExtension } from '@tiptap/core';
// The shared schema's extensions declare their commands (toggleBold, setColor, addRowAfter...) on Tiptap's
// types; these type-only imports bring those declarations into the browser's program.
import type {} from '@tiptap/extension-table';
import type {} from '@tiptap/extension-text-style';
import type {} from '@tiptap/starter-kit';
import { noteExtensions, type BrowserAdditions } from '@eln/shared/editor';
import { BlockUid } from './blockUid';
import { TableGuard, type TableViolation } from './tableGuard';
import { DropboxCells } from './dropboxCells';

/** Views for the atom nodes; without them (tests) the nodes render as plain HTML. */
export type NodeViews = Omit<BrowserAdditions, 'blockUid'>;

/**
 * The browser's editor: the shared schema (`@eln/shared/editor`) with the node views, the plugin that
 * assigns block IDs, a guard on the table rules for instant feedback, and the dropbox cells' values.
 */
export function browserExtensions(
  views: NodeViews = {},
  onTableRefused: (violation: TableViolation) => void = () => undefined,
): AnyExtension[] {
  return [...noteExtensions({ ...views, blockUid: () => BlockUid }), TableGuard.configure({ onRefuse: onTableRefused }), DropboxCells];
}
