import { diffArrays } from 'diff';
import type { TextPart } from './model.js';

/** Scripts written without spaces between words, so compared character by character: Chinese, Japanese kana, Korean. */
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Bopomofo}';
const WORD_CHAR = `(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}_])`;

/**
 * A comparison's tokens: each CJK character alone; a word or number of other scripts whole, with the
 * points, commas and apostrophes inside it (`3.14`, `1,000`, `don't`); a run of white space; any other
 * character alone (punctuation, symbols, emoji).
 */
const TOKEN = new RegExp(`[${CJK}]|${WORD_CHAR}+(?:[.,'’]${WORD_CHAR}+)*|\\s+|.`, 'gsu');

export function textTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/**
 * Beyond this many tokens added and removed, texts are not aligned token by token (the cost grows with
 * the text's length times the edits): the whole older text is shown removed and the newer one added.
 */
const MAX_EDIT_LENGTH = 1000;

const isBlank = (text: string) => text.trim() === '';

/**
 * The word-level difference of two texts, as runs of kept, added and removed text in reading order (a
 * removed run before the added one that replaces it). White space alone between two changes is taken
 * into both, so "the cat" → "a dog" reads as one replacement rather than two.
 */
export function diffText(before: string, after: string): TextPart[] {
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  const changes = diffArrays(textTokens(before), textTokens(after), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return wholeReplacement(before, after);
  const runs: TextPart[] = changes.map((change) => ({
    kind: change.added ? 'added' : change.removed ? 'removed' : 'same',
    text: change.value.join(''),
  }));
  return mergeRuns(absorbBlankRuns(runs));
}

function wholeReplacement(before: string, after: string): TextPart[] {
  const parts: TextPart[] = [];
  if (before) parts.push({ kind: 'removed', text: before });
  if (after) parts.push({ kind: 'added', text: after });
  return parts;
}

/** A blank kept run between two changed runs becomes removed and added text, so neighbouring edits read as one. */
function absorbBlankRuns(runs: TextPart[]): TextPart[] {
  return runs.flatMap((run, index): TextPart[] => {
    const previous = runs[index - 1];
    const next = runs[index + 1];
    const between = previous && next && previous.kind !== 'same' && next.kind !== 'same';
    if (run.kind !== 'same' || !between || !isBlank(run.text)) return [run];
    return [
      { kind: 'removed', text: run.text },
      { kind: 'added', text: run.text },
    ];
  });
}

/**
 * Adjacent runs of one kind joined, and within each stretch of changes the removed text put before the
 * added text: [removed "the", added "a", removed " cat", added " dog"] → [removed "the cat", added "a dog"].
 */
function mergeRuns(runs: TextPart[]): TextPart[] {
  const merged: TextPart[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed) merged.push({ kind: 'removed', text: removed });
    if (added) merged.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  for (const run of runs) {
    if (run.kind === 'removed') removed += run.text;
    else if (run.kind === 'added') added += run.text;
    else {
      flush();
      const last = merged[merged.length - 1];
      if (last?.kind === 'same') last.text += run.text;
      else merged.push({ kind: 'same', text: run.text });
    }
  }
  flush();
  return merged;
}
