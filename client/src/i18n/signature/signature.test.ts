import { describe, expect, it } from 'vitest';
import { SIGNATURE_STATUS, SIGNATURE_TYPES } from '@eln/shared';
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

describe('signature strings', () => {
  const base = flatten(en);
  // Strings that are rightly the same in every language.
  const same = new Set(['entry.version']);

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

  it('names every meaning and every status in every language', () => {
    for (const resource of [en, ko, ja]) {
      for (const type of SIGNATURE_TYPES) expect(resource.meaning[type]).toBeTruthy();
      for (const status of Object.values(SIGNATURE_STATUS)) expect(resource.status[status]).toBeTruthy();
      for (const type of SIGNATURE_TYPES) expect(resource.dialog.meaningHelp[type]).toBeTruthy();
    }
  });
});
