import { diffBlockLists, summaryLine, type BlockChange, type Language, type SavedBlock } from '@eln/shared';
import { SHARED_MESSAGES } from '@eln/shared/i18n';
import { el, text } from '../../rendering/html.js';
import { renderVersionFragment, type FileSource } from '../../rendering/render.js';
import { pdfMessage, type PdfMessage } from './messages.js';

/**
 * The optional "changes since the previous version" section of a note's PDF (`changes` of the export
 * request): the shared diff's one-line summary, then each block added, changed or removed, as the
 * comparison screen names them. A changed text block shows its words added and removed; any other
 * changed block is shown as it is now.
 */

const CHANGE_LABELS: Partial<Record<BlockChange['kind'], PdfMessage>> = {
  added: 'changeAdded',
  changed: 'changeChanged',
  removed: 'changeRemoved',
};

/** The printed version against the one before it; `previous` null for the first version (everything in it is new). */
export function changesSection(
  version: { version: number; blocks: SavedBlock[] },
  previous: SavedBlock[] | null,
  lang: Language,
  fileSource: FileSource,
): string {
  const m = (key: PdfMessage, params?: Record<string, string | number>) => pdfMessage(key, lang, params);
  const heading = el('h2', {}, text(previous ? m('changesSince', { version: version.version - 1 }) : m('changesFirst')));
  const diff = diffBlockLists(previous ?? [], version.blocks);
  const summary = el('p', { class: 'pdf-changes-summary' }, text(summaryLine(diff.summary, SHARED_MESSAGES[lang].history.changes)));
  const listed = diff.changes.filter((change) => CHANGE_LABELS[change.kind]);
  const items = listed.map((change) =>
    el(
      'li',
      { class: `pdf-change is-${change.kind}`, 'data-block-uid': change.blockUid },
      el('span', { class: 'pdf-badge' }, text(m(CHANGE_LABELS[change.kind]!))),
      changedContent(change, lang, fileSource),
    ),
  );
  return el(
    'section',
    { class: 'pdf-section pdf-changes' },
    heading,
    summary,
    items.length ? el('ol', { class: 'pdf-changes-list' }, ...items) : '',
  );
}

function changedContent(change: BlockChange, lang: Language, fileSource: FileSource): string {
  if (change.kind === 'changed' && change.detail?.kind === 'text') {
    const parts = change.detail.parts.map((part) =>
      part.kind === 'same' ? text(part.text) : el(part.kind === 'added' ? 'ins' : 'del', {}, text(part.text)),
    );
    return el('p', { class: 'pdf-change-text' }, ...parts);
  }
  const block = change.kind === 'removed' ? change.before : change.after;
  return block ? el('div', { class: 'pdf-change-block' }, renderVersionFragment([block], { lang, fileSource })) : '';
}
