import { describe, expect, it } from 'vitest';
import en from './en';
import ja from './ja';
import ko from './ko';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('editor strings', () => {
  const base = flatten(en);
  // Strings that are rightly the same in every language.
  const same = new Set(['table.size', 'projectNotes.nobody']);

  for (const [name, resource] of [['ko', ko], ['ja', ja]] as const) {
    it(`${name} has every English key, translated, with the same placeholders`, () => {
      const strings = flatten(resource);
      expect([...strings.keys()].sort()).toEqual([...base.keys()].sort());
      for (const [key, english] of base) {
        const text = strings.get(key) ?? '';
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(english));
        if (!same.has(key)) expect(text, `${key} looks untranslated`).not.toBe(english);
      }
    });
  }
});
