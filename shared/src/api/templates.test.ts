import { describe, expect, it } from 'vitest';
import { compareTemplateVersions, parseTemplateVersion, suggestedTemplateVersion } from './templates.js';

describe('template versions', () => {
  it('accept a decimal that is not 0 and not an integer, kept as typed but for the spaces around it', () => {
    expect(parseTemplateVersion('1.1')).toBe('1.1');
    expect(parseTemplateVersion(' 0.1 ')).toBe('0.1');
    expect(parseTemplateVersion('12.10')).toBe('12.10');
    expect(parseTemplateVersion('1.05')).toBe('1.05');
    expect(parseTemplateVersion('2.50')).toBe('2.50');
    for (const refused of [
      '0',
      '1',
      '1.0',
      '0.0',
      '1.00',
      '0.000',
      '01.1',
      '1.',
      '.1',
      '-1.1',
      '1.1.1',
      'abc',
      '1e1',
      '',
      '1,1',
      '99999.1',
      '1.12345',
    ]) {
      expect(parseTemplateVersion(refused), refused).toBeNull();
    }
  });

  it('compare as decimals: 1.10 equals 1.1 and comes before 1.9', () => {
    expect(compareTemplateVersions('1.10', '1.1')).toBe(0);
    expect(compareTemplateVersions('1.10', '1.9')).toBeLessThan(0);
    expect(compareTemplateVersions('1.9', '1.10')).toBeGreaterThan(0);
    expect(compareTemplateVersions('1.05', '1.1')).toBeLessThan(0);
    expect(compareTemplateVersions('1.11', '1.1')).toBeGreaterThan(0);
    expect(compareTemplateVersions('2.1', '1.99')).toBeGreaterThan(0);
    expect(compareTemplateVersions('0.5', '0.50')).toBe(0);
    expect(compareTemplateVersions('10.1', '9.9')).toBeGreaterThan(0);
  });

  it('suggest one more in the last decimal place, never a whole number; 0.1 first', () => {
    expect(suggestedTemplateVersion(null)).toBe('0.1');
    expect(suggestedTemplateVersion('1.1')).toBe('1.2');
    expect(suggestedTemplateVersion('1.9')).toBe('2.1');
    expect(suggestedTemplateVersion('1.09')).toBe('1.10');
    expect(suggestedTemplateVersion('1.99')).toBe('2.01');
    expect(suggestedTemplateVersion('0.10')).toBe('0.11');
    for (const last of ['1.1', '1.9', '1.09', '1.99', '0.10', '3.999']) {
      const next = suggestedTemplateVersion(last);
      expect(parseTemplateVersion(next), next).toBe(next);
      expect(compareTemplateVersions(next, last), `${next} after ${last}`).toBeGreaterThan(0);
    }
  });
});
