import { expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };

/** Every string of a resource by its dotted key. */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/**
 * Tests (inside a describe) that Korean and Japanese have every English key, non-empty, with the same
 * placeholders, and translated: different from English except the keys in `same`.
 */
export function itTranslatesEveryKey(en: Tree, translations: { ko: Tree; ja: Tree }, same: ReadonlySet<string>): void {
  const base = flatten(en);
  for (const [name, resource] of Object.entries(translations)) {
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
}
