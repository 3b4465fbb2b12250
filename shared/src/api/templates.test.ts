import { describe, expect, it } from 'vitest';
import { compareTemplateVersions, formatTemplateVersion, parseTemplateVersion, suggestedTemplateVersion } from './templates.js';

describe('template versions', () => {
  it('accept a number that is not 0 and not an integer, written one way', () => {
    expect(parseTemplateVersion('1.1')).toEqual({ major: 1, minor: 1 });
    expect(parseTemplateVersion(' 0.1 ')).toEqual({ major: 0, minor: 1 });
    expect(parseTemplateVersion('12.10')).toEqual({ major: 12, minor: 10 });
    for (const refused of [
      '0',
      '1',
      '1.0',
      '0.0',
      '1.00',
      '1.01',
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
    ]) {
      expect(parseTemplateVersion(refused), refused).toBeNull();
    }
  });

  it('compare as two integers, so 1.10 comes after 1.9', () => {
    const v = (text: string) => parseTemplateVersion(text)!;
    expect(compareTemplateVersions(v('1.10'), v('1.9'))).toBeGreaterThan(0);
    expect(compareTemplateVersions(v('2.1'), v('1.99'))).toBeGreaterThan(0);
    expect(compareTemplateVersions(v('1.2'), v('1.2'))).toBe(0);
    expect(formatTemplateVersion(v('3.40'))).toBe('3.40');
  });

  it('suggest the next minor version, 0.1 first', () => {
    expect(suggestedTemplateVersion(null)).toBe('0.1');
    expect(suggestedTemplateVersion({ major: 1, minor: 9 })).toBe('1.10');
  });
});
