import { describe, expect, it } from 'vitest';
import { fillIn, SHARED_MESSAGES } from './index.js';

type Tree = { [key: string]: string | Tree };

/** Every string by its dotted key. */
const flatten = (tree: Tree, prefix = ''): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the words screens and printouts share', () => {
  const english = new Map(flatten(SHARED_MESSAGES.en));

  it('are in every language, none empty, with the same {{placeholders}} (single braces would print as they are)', () => {
    for (const [lang, messages] of Object.entries(SHARED_MESSAGES)) {
      const strings = flatten(messages);
      expect(strings.map(([key]) => key).sort(), lang).toEqual([...english.keys()].sort());
      for (const [key, text] of strings) {
        expect(text.trim(), `${lang} ${key}`).not.toBe('');
        expect(placeholders(text), `${lang} ${key}`).toEqual(placeholders(english.get(key) ?? ''));
        expect(text.replace(/\{\{\w+\}\}/g, ''), `${lang} ${key}`).not.toMatch(/[{}]/);
      }
    }
  });

  it('fill i18next placeholders once, leaving unknown ones and the values’ own braces alone', () => {
    expect(fillIn('Version {{version}} of {{count}}', { version: 2, count: 3 })).toBe('Version 2 of 3');
    expect(fillIn('{{title}}: {{missing}}', { title: '{{missing}}' })).toBe('{{missing}}: {{missing}}');
    expect(fillIn('{single} {{double}}', { single: 'x', double: 'y' })).toBe('{single} y');
  });
});
