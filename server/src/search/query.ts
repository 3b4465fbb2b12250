import { LIMITS } from '@eln/shared';
import { isCjkWord, lexeme, normalise, tokensOf } from './tokens.js';

/** One term of a query: its words side by side (a phrase when quoted), to find or to exclude. */
interface Term {
  words: string[];
  quoted: boolean;
  exclude: boolean;
}

export interface ParsedQuery {
  /** The tsquery of the whole query, each unquoted term's last word a prefix; null when it asks for nothing. */
  tsquery: string | null;
  /** The same without prefixes: matches of whole words rank above partial ones. */
  exactTsquery: string | null;
  /** The words to find, for marking snippets (`prefix`: the text's word starts with it). */
  marks: Array<{ word: string; prefix: boolean }>;
}

const TERM = /(-?)"([^"]*)"?|(-?)(\S+)/g;

function termsOf(q: string): Term[] {
  const terms: Term[] = [];
  for (const match of q.matchAll(TERM)) {
    const quoted = match[2] !== undefined;
    const raw = quoted ? match[2]! : match[4]!;
    const words = tokensOf(normalise(raw)).map((token) => token.word);
    if (words.length) terms.push({ words, quoted, exclude: (quoted ? match[1] : match[3]) === '-' });
  }
  return terms.slice(0, LIMITS.searchTerms);
}

/** Whether an unquoted term's last word is a prefix: Latin words and numbers, and a single CJK character. */
const prefixable = (word: string) => !isCjkWord(word) || word.length === 1;

function termQuery(term: Term, exact: boolean): string {
  return term.words
    .map((word, i) => {
      const prefix = !exact && !term.quoted && i === term.words.length - 1 && prefixable(word);
      return `${lexeme(word)}${prefix ? ':*' : ''}`;
    })
    .join(' <-> ');
}

function combined(terms: Term[], exact: boolean): string | null {
  const found = terms.filter((t) => !t.exclude);
  if (!found.length) return null;
  return [...found.map((t) => `(${termQuery(t, exact)})`), ...terms.filter((t) => t.exclude).map((t) => `!(${termQuery(t, exact)})`)].join(
    ' & ',
  );
}

/**
 * A search box's text as tsqueries over the index's words (tokens.ts): words ANDed, `"…"` a phrase of
 * exact words, `-word` and `-"…"` excluded. A query of exclusions only asks for nothing.
 */
export function parseQuery(q: string): ParsedQuery {
  const terms = termsOf(q);
  return {
    tsquery: combined(terms, false),
    exactTsquery: combined(terms, true),
    marks: terms
      .filter((t) => !t.exclude)
      .flatMap((t) => t.words.map((word, i) => ({ word, prefix: !t.quoted && i === t.words.length - 1 && prefixable(word) }))),
  };
}
