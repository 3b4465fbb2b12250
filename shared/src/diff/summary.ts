import { fillIn } from '../i18n/translation.js';
import type { ChangeSummary } from './model.js';

/** The counts a one-line summary names, in its order. */
const SUMMARY_COUNTS = ['added', 'changed', 'removed', 'moved'] as const;

/** The words of a one-line summary (`history.changes` of `@eln/shared/i18n`, in the reader's language). */
export type SummaryWords = Record<(typeof SUMMARY_COUNTS)[number] | 'none' | 'separator', string>;

/** "2 added, 1 changed, 1 moved": the counts that are not zero, or the words for no change. */
export function summaryLine(summary: ChangeSummary, words: SummaryWords): string {
  const parts = SUMMARY_COUNTS.filter((kind) => summary[kind] > 0).map((kind) => fillIn(words[kind], { count: summary[kind] }));
  return parts.length ? parts.join(words.separator) : words.none;
}
