import type { Language, Localised } from '@eln/shared';
import { fillIn } from '@eln/shared/i18n';

/**
 * The few words a rendered note adds to what its writers typed that no screen shows as such, in every
 * interface language. The labels the editor shows too (an untitled image, an attached file, a schema's
 * fields and revision, a cell's dropbox, chart types, a chart whose table is gone) come from the shared
 * catalogue (`SHARED_MESSAGES` of `@eln/shared/i18n`), so a printed note reads like the screen.
 * Placeholders are i18next's {{name}}, as in the shared catalogue.
 */
const words = (en: string, ko: string, ja: string): Localised => ({ en, ko, ja });

export const RENDER_MESSAGES = {
  empty: words('This version has no content.', '이 버전에는 내용이 없습니다.', 'このバージョンには内容がありません。'),
  imageMissing: words('The image is not included.', '이미지가 포함되어 있지 않습니다.', '画像は含まれていません。'),
  /** A cell's dropbox without a chosen row's code (the editor shows the value alone). */
  dropbox: words('Dropbox: {{title}}', '드롭박스: {{title}}', 'ドロップボックス: {{title}}'),
  chartData: words('{{type}} chart data', '{{type}} 차트의 데이터', '{{type}}のデータ'),
} as const satisfies Record<string, Localised>;

export type RenderMessage = keyof typeof RENDER_MESSAGES;

export const message = (key: RenderMessage, lang: Language, params?: Record<string, string | number>): string =>
  fillIn(RENDER_MESSAGES[key][lang], params);
