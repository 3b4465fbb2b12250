/**
 * The search index's words, made here rather than by PostgreSQL's text-search parser: its parser drops
 * Korean and Japanese letters under the C locale both databases run with, splits lot codes and chemical
 * names its own way, and has no word for a two-character term inside a longer run of Hangul or Kanji.
 * Text and query go through the same function, so what a query asks for is what the index holds.
 *
 * - Text is NFKC-normalised (full-width Latin and half-width Katakana become their usual forms) and
 *   lower-cased.
 * - Latin letters and digits are words, split where letters meet digits: `24-117` is `24 117`, `2-propanol`
 *   is `2 propanol`, `10mM` and `10 mM` are both `10 mm`; a query asks for such words side by side.
 * - A run of Hangul, Kana or Han is its overlapping pairs (`묽은염산` is `묽은 은염 염산`), so any two
 *   characters of it are one word; a run of one character is that character.
 */

export interface Token {
  word: string;
  /** Where the token's characters are in the normalised text (start inclusive, end exclusive). */
  start: number;
  end: number;
}

/** The longest word kept; longer runs (a pasted hash, a sequence) are cut, as PostgreSQL would refuse them. */
const MAX_WORD = 64;

const CJK = /[\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}ー]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function kindOf(ch: string): 'cjk' | 'letter' | 'digit' | null {
  if (CJK.test(ch)) return 'cjk';
  if (!LETTER_OR_DIGIT.test(ch)) return null;
  return /\p{N}/u.test(ch) ? 'digit' : 'letter';
}

export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The tokens of already normalised text, in order. */
export function tokensOf(normalised: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(normalised);
  // Offsets in UTF-16 units, so a snippet's marks index the string a client receives.
  const offsets: number[] = [];
  let at = 0;
  for (const ch of chars) {
    offsets.push(at);
    at += ch.length;
  }
  offsets.push(at);
  let i = 0;
  while (i < chars.length) {
    const kind = kindOf(chars[i]!);
    if (kind === null) {
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < chars.length && kindOf(chars[j]!) === kind) j += 1;
    if (kind === 'cjk') {
      if (j - i === 1) tokens.push({ word: chars[i]!, start: offsets[i]!, end: offsets[i + 1]! });
      for (let k = i; k + 1 < j; k += 1) {
        tokens.push({ word: chars[k]! + chars[k + 1]!, start: offsets[k]!, end: offsets[k + 2]! });
      }
    } else {
      tokens.push({ word: chars.slice(i, Math.min(j, i + MAX_WORD)).join(''), start: offsets[i]!, end: offsets[j]! });
    }
    i = j;
  }
  return tokens;
}

/** A word as a tsvector / tsquery lexeme literal. */
export function lexeme(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * A tsvector literal of weighted texts (A: titles and headings, D: body), positions counting on across
 * them so a phrase never spans two of them (a gap of 10 lies between).
 */
export function vectorLiteral(parts: { text: string; weight: 'A' | 'B' | 'C' | 'D' }[]): string {
  const positions = new Map<string, string[]>();
  let position = 1;
  for (const part of parts) {
    for (const token of tokensOf(normalise(part.text))) {
      // PostgreSQL keeps positions up to 16383 and at most 256 per word.
      const list = positions.get(token.word) ?? [];
      if (list.length < 256) list.push(`${Math.min(position, 16383)}${part.weight}`);
      positions.set(token.word, list);
      position += 1;
    }
    position += 10;
  }
  return Array.from(positions, ([word, list]) => `${lexeme(word)}:${list.join(',')}`).join(' ');
}

/** Whether a word of the index is Hangul, Kana or Han (a pair or a lone character). */
export function isCjkWord(word: string): boolean {
  return CJK.test(word);
}
