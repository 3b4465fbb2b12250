import { pickLanguage, type Language } from '@eln/shared';

/** The interface language: the stored choice, else the browser's languages, else English. */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[] | undefined): Language {
  return pickLanguage(stored, browserLanguages);
}
