import { LIMITS } from '@eln/shared';
import { normalise, tokensOf } from './tokens.js';

export interface Snippet {
  text: string;
  marks: Array<{ start: number; end: number }>;
}

/** How much text a snippet shows before its first match. */
const LEAD = 40;

/**
 * The text normalised character by character, with where each normalised unit came from, so that marks
 * found in normalised text fall on the original characters.
 */
function normalisedWithOrigins(text: string): { normalised: string; from: number[]; to: number[] } {
  let normalised = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const ch of text) {
    const n = normalise(ch);
    for (let i = 0; i < n.length; i += 1) {
      from.push(at);
      to.push(at + ch.length);
    }
    normalised += n;
    at += ch.length;
  }
  return { normalised, from, to };
}

const startsInsidePair = (text: string, at: number) => at > 0 && at < text.length && /[\uDC00-\uDFFF]/.test(text[at]!);

/**
 * A hit's snippet: plain text around its first match with the matched words' ranges, for the client to
 * mark as it draws (never markup made here, so nothing in a note can inject any).
 */
export function snippetOf(text: string, words: ReadonlyArray<{ word: string; prefix: boolean }>): Snippet {
  const { normalised, from, to } = normalisedWithOrigins(text);
  const ranges: Array<{ start: number; end: number }> = [];
  for (const token of tokensOf(normalised)) {
    if (!words.some((w) => token.word === w.word || (w.prefix && token.word.startsWith(w.word)))) continue;
    const start = from[token.start]!;
    const end = to[token.end - 1]!;
    const last = ranges.at(-1);
    // CJK pairs overlap: a run of matched pairs is one mark.
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else ranges.push({ start, end });
  }
  let start = Math.max(0, (ranges[0]?.start ?? 0) - LEAD);
  if (startsInsidePair(text, start)) start -= 1;
  let end = Math.min(text.length, start + LIMITS.searchSnippet);
  if (startsInsidePair(text, end)) end -= 1;
  return {
    text: text.slice(start, end),
    marks: ranges
      .filter((r) => r.end > start && r.start < end)
      .map((r) => ({ start: Math.max(r.start, start) - start, end: Math.min(r.end, end) - start })),
  };
}
