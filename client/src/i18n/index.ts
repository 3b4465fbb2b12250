import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { isLanguage, LANGUAGES, type Language } from '@eln/shared';
import { readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import { detectLanguage } from './detect';
import en from './en';
import ja from './ja';
import ko from './ko';
import editorEn from './editor/en';
import editorJa from './editor/ja';
import editorKo from './editor/ko';
import auditEn from './audit/en';
import auditJa from './audit/ja';
import auditKo from './audit/ko';
import signatureEn from './signature/en';
import signatureJa from './signature/ja';
import signatureKo from './signature/ko';

/**
 * `translation` holds the app's strings; `editor` those of the live note editor, its tabs and note lists;
 * `audit` those of the audit trail, the download page and project closing; `signature` those of electronic
 * signatures (the note's signatures area, the request, signing and removal dialogs, the note list).
 */
export const resources = {
  en: { translation: en, editor: editorEn, audit: auditEn, signature: signatureEn },
  ko: { translation: ko, editor: editorKo, audit: auditKo, signature: signatureKo },
  ja: { translation: ja, editor: editorJa, audit: auditJa, signature: signatureJa },
} as const;

const browserLanguages = typeof navigator !== 'undefined' ? navigator.languages : undefined;
const initial: Language = detectLanguage(readStorage(STORAGE_KEYS.language), browserLanguages);

void i18next.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = initial;

/** The language the interface shows (and the API's Accept-Language). */
export function currentLanguage(): Language {
  const language = i18next.language;
  return isLanguage(language) ? language : initial;
}

/** Stores the choice and reloads, so that every screen and call starts in the new language. */
export function switchLanguage(language: Language): void {
  writeStorage(STORAGE_KEYS.language, language);
  window.location.reload();
}

export default i18next;
