import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { AUDIT_SYSTEM_REASONS } from '@eln/shared';
import en from '../../i18n/audit/en';
import ko from '../../i18n/audit/ko';
import { reasonText } from './labels';

describe('audit reasons for the reader', () => {
  it('translates the reasons the system writes and leaves a person’s words as written', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'ko', ns: ['audit'], resources: { en: { audit: en }, ko: { audit: ko } } });
    const t = i18n.getFixedT('ko', 'audit');
    expect(reasonText(AUDIT_SYSTEM_REASONS.wrongPassword, t)).toBe(ko.systemReasons.wrongPassword);
    expect(reasonText('Signed the wrong version by mistake', t)).toBe('Signed the wrong version by mistake');
  });
});
