import type { ChartType, Language, Localised } from '@eln/shared';

/**
 * The few words a rendered note adds to what its writers typed, in every interface language. The wording
 * follows the editor's own labels (client/src/i18n/editor), so a printed note reads like the screen.
 */
const words = (en: string, ko: string, ja: string): Localised => ({ en, ko, ja });

export const RENDER_MESSAGES = {
  empty: words('This version has no content.', '이 버전에는 내용이 없습니다.', 'このバージョンには内容がありません。'),
  untitledImage: words('Untitled image', '제목 없는 이미지', '無題の画像'),
  imageMissing: words('The image is not included.', '이미지가 포함되어 있지 않습니다.', '画像は含まれていません。'),
  attachment: words('Attachment', '첨부 파일', '添付ファイル'),
  dropbox: words('Dropbox: {title}', '드롭박스: {title}', 'ドロップボックス: {title}'),
  dropboxChoice: words('Dropbox: {title} · code {code}', '드롭박스: {title} · 코드 {code}', 'ドロップボックス: {title}・コード {code}'),
  dropboxUnchosen: words('Dropbox: {title} · nothing chosen', '드롭박스: {title} · 선택 안 함', 'ドロップボックス: {title}・未選択'),
  schemaCaption: words(
    '{type} › {title} · revision {revision}',
    '{type} › {title} · 리비전 {revision}',
    '{type} › {title}・リビジョン {revision}',
  ),
  schemaField: words('Field', '필드', 'フィールド'),
  schemaValue: words('Value', '값', '値'),
  schemaEmpty: words('This schema had no entries.', '이 스키마에는 항목이 없었습니다.', 'このスキーマには項目がありませんでした。'),
  schemaInvalid: words(
    'This schema block cannot be shown.',
    '이 스키마 블록은 표시할 수 없습니다.',
    'このスキーマブロックは表示できません。',
  ),
  chartData: words('Data of the {type} chart', '{type} 차트의 데이터', '{type}のデータ'),
  chartMissing: words(
    'The table this chart was made from is gone, or the range is no longer inside it.',
    '이 차트의 원본 표가 삭제되었거나, 범위가 더 이상 표 안에 있지 않습니다.',
    'このグラフの元の表が削除されたか、範囲が表の外になっています。',
  ),
} as const satisfies Record<string, Localised>;

export const CHART_TYPE_NAMES: Record<ChartType, Localised> = {
  bar: words('bar', '막대형', '棒グラフ'),
  horizontal: words('horizontal bar', '가로 막대형', '横棒グラフ'),
  line: words('line', '꺾은선형', '折れ線グラフ'),
  doughnut: words('doughnut', '도넛형', 'ドーナツグラフ'),
  pie: words('pie', '원형', '円グラフ'),
  radar: words('radar', '방사형', 'レーダーチャート'),
  scatter: words('scatter', '분산형', '散布図'),
};

export type RenderMessage = keyof typeof RENDER_MESSAGES;

export const message = (key: RenderMessage, lang: Language): string => RENDER_MESSAGES[key][lang];
