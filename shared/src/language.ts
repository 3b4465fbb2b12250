/** The interface languages, in the order the header's switch shows them (KR, EN, JP). */
export const LANGUAGES = ['ko', 'en', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Labels of the header's language switch. */
export const LANGUAGE_SWITCH_LABELS: Record<Language, string> = { ko: 'KR', en: 'EN', ja: 'JP' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Picks the first supported language from a list of candidates such as a stored choice followed by
 * the browser's languages, or an HTTP Accept-Language header ("ja-JP,ja;q=0.9,en;q=0.8").
 */
export function pickLanguage(...candidates: Array<string | null | undefined | readonly string[]>): Language {
  for (const candidate of candidates) {
    const list = typeof candidate === 'string' ? candidate.split(',') : (candidate ?? []);
    for (const entry of list) {
      const primary = entry.trim().split(';')[0]?.split('-')[0]?.toLowerCase();
      if (isLanguage(primary)) return primary;
    }
  }
  return DEFAULT_LANGUAGE;
}

export type Localised = Record<Language, string>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** Replaces {name} placeholders with values. */
export function interpolate(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

/** The names of a message's {name} placeholders: the values whoever says it must give. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}
