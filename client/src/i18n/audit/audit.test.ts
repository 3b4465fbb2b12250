import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_SYSTEM_REASONS } from '@eln/shared';
import { ACTION_GROUPS, TARGET_TYPES } from '../../features/audit/labels';
import { flatten, itTranslatesEveryKey } from '../translationCheck';
import en from './en';
import ja from './ja';
import ko from './ko';

describe('audit strings', () => {
  const base = flatten(en);

  for (const [name, resource] of [
    ['en', en],
    ['ko', ko],
    ['ja', ja],
  ] as const) {
    const strings = flatten(resource);

    it(`${name} names every audit action, action group and target type`, () => {
      for (const action of AUDIT_ACTIONS) expect(strings.get(`actions.${action}`)?.trim(), action).toBeTruthy();
      for (const group of ACTION_GROUPS) expect(strings.get(`actionGroups.${group}`)?.trim(), group).toBeTruthy();
      for (const type of TARGET_TYPES) expect(strings.get(`targetTypes.${type}`)?.trim(), type).toBeTruthy();
      for (const reason of Object.keys(AUDIT_SYSTEM_REASONS)) expect(strings.get(`systemReasons.${reason}`)?.trim(), reason).toBeTruthy();
    });
  }
  itTranslatesEveryKey(en, { ko, ja }, new Set(['download.auditFormat', 'exports.pdf', 'exports.pdfAShort', 'exports.notePdf']));

  it('labels no action that does not exist', () => {
    const labelled = [...base.keys()].filter((key) => key.startsWith('actions.')).map((key) => key.slice('actions.'.length));
    expect(labelled.sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
