import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_SYSTEM_REASONS } from '@eln/shared';
import { ACTION_GROUPS, TARGET_TYPES } from '../../features/audit/labels';
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

describe('audit strings', () => {
  const base = flatten(en);
  // Strings that are rightly the same in every language.
  const same = new Set(['download.auditFormat']);

  for (const [name, resource] of [['en', en], ['ko', ko], ['ja', ja]] as const) {
    const strings = flatten(resource);

    it(`${name} names every audit action, action group and target type`, () => {
      for (const action of AUDIT_ACTIONS) expect(strings.get(`actions.${action}`)?.trim(), action).toBeTruthy();
      for (const group of ACTION_GROUPS) expect(strings.get(`actionGroups.${group}`)?.trim(), group).toBeTruthy();
      for (const type of TARGET_TYPES) expect(strings.get(`targetTypes.${type}`)?.trim(), type).toBeTruthy();
      for (const reason of Object.keys(AUDIT_SYSTEM_REASONS)) expect(strings.get(`systemReasons.${reason}`)?.trim(), reason).toBeTruthy();
    });

    if (name === 'en') continue;
    it(`${name} has every English key, translated, with the same placeholders`, () => {
      expect([...strings.keys()].sort()).toEqual([...base.keys()].sort());
      for (const [key, english] of base) {
        const text = strings.get(key) ?? '';
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(english));
        if (!same.has(key)) expect(text, `${key} looks untranslated`).not.toBe(english);
      }
    });
  }

  it('labels no action that does not exist', () => {
    const labelled = [...base.keys()].filter((key) => key.startsWith('actions.')).map((key) => key.slice('actions.'.length));
    expect(labelled.sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
