import type { Language } from '../language.js';
import en, { type SharedMessages } from './en.js';
import ja from './ja.js';
import ko from './ko.js';

/**
 * The words screens and printouts share, in every interface language: `@eln/shared/i18n`. A separate
 * entry from `@eln/shared`, so that the client loads only its start language's words (it imports
 * `@eln/shared/i18n/<language>` into that language's catalogue).
 */
export const SHARED_MESSAGES: Record<Language, SharedMessages> = { ko, en, ja };

export type { SharedMessages };
export { fillIn, type Translation } from './translation.js';
