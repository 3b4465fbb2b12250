import { describe, expect, it } from 'vitest';
import { ERR, errorMessage } from '../errors.js';
import { parseTemplateVersion } from './templates.js';
import { templateVersionRefusal } from './templateVersionRefusal.js';

describe('the refusal of a template version', () => {
  it('names the rule the text broke', () => {
    for (const text of ['abc', '', ' ', '-1.1', '1.1.1', '1e1', '1,1', '.1', '1.', '1.1a']) {
      expect(templateVersionRefusal(text), text).toBe(ERR.templateVersionNotNumber);
    }
    for (const text of ['0', '0.0', '1', ' 2 ', '1.0', '2.00', '10']) {
      expect(templateVersionRefusal(text), text).toBe(ERR.templateVersionInvalid);
    }
    for (const text of ['01.5', '00.5', '99999.1', '1.12345']) {
      expect(parseTemplateVersion(text), text).toBeNull();
      expect(templateVersionRefusal(text), text).toBe(ERR.templateVersionForm);
      expect(errorMessage(templateVersionRefusal(text), 'en')).not.toMatch(/whole number/);
    }
  });
});
