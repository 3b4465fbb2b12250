import type { Language, Localised } from '@eln/shared';
import { fillIn } from '@eln/shared/i18n';

/**
 * The words only the PDF export adds around a note, in every interface language: the page header and
 * footer, the cover, and the facts, signature details and version history no screen shows as such. Every
 * label a screen shows too (a note's number, writer, status, version; signatures, their meaning and
 * status; a project's leader, participants and status) comes from the shared catalogue
 * (`SHARED_MESSAGES` of `@eln/shared/i18n`), which the client's catalogues take theirs from, so a printout
 * says what the screen says. Placeholders are i18next's {{name}}, as in the shared catalogue.
 */
const words = (en: string, ko: string, ja: string): Localised => ({ en, ko, ja });

export const PDF_MESSAGES = {
  // Page header and footer.
  headerProject: words('Project export', '프로젝트 내보내기', 'プロジェクトのエクスポート'),
  footerExported: words('Exported {{when}} ({{zone}})', '내보낸 시각 {{when}} ({{zone}})', 'エクスポート日時 {{when}}（{{zone}}）'),
  footerPage: words('Page {{page}} / {{pages}}', '페이지 {{page}} / {{pages}}', 'ページ {{page}} / {{pages}}'),
  footerCoverPage: words('Cover page {{page}} / {{pages}}', '표지 {{page}} / {{pages}}', '表紙 {{page}} / {{pages}}'),

  // Cover.
  coverKind: words('Lab notebook: project export', '연구노트: 프로젝트 내보내기', '研究ノート：プロジェクトのエクスポート'),
  projectNo: words('Project number', '프로젝트 번호', 'プロジェクト番号'),
  noParticipants: words('None', '없음', 'なし'),
  finishedAt: words('Completed', '종료', '完了'),
  notFinished: words('Not completed', '종료되지 않음', '未完了'),
  noteCount: words('Notes in this export', '내보낸 노트 수', 'エクスポートしたノート数'),
  range: words('Notes changed', '변경된 노트', '変更されたノート'),
  rangeAll: words('All notes', '모든 노트', 'すべてのノート'),
  rangeFrom: words('from {{from}}', '{{from}}부터', '{{from}}から'),
  rangeTo: words('until {{to}}', '{{to}}까지', '{{to}}まで'),
  exportedAt: words('Exported at', '내보낸 시각', 'エクスポート日時'),
  exportedBy: words('Exported by', '내보낸 사람', 'エクスポートした人'),
  contents: words('Contents', '목차', '目次'),
  pages: words('Pages', '페이지', 'ページ'),
  pageRange: words('{{from}}–{{to}}', '{{from}}–{{to}}', '{{from}}–{{to}}'),
  pagingNote: words(
    'Page numbers here count the whole file. Each note\'s own pages say "Page x / y" within that note, beside its number and version.',
    '여기의 페이지 번호는 파일 전체 기준입니다. 각 노트의 페이지에는 노트 번호와 버전과 함께 그 노트 안에서의 "페이지 x / y"가 표시됩니다.',
    'ここのページ番号はファイル全体で数えています。各ノートのページには、ノート番号とバージョンとともに、そのノート内での「ページ x / y」が記載されています。',
  ),
  noNotes: words('No notes match this export.', '내보낼 노트가 없습니다.', 'エクスポートするノートがありません。'),

  // A note's facts.
  project: words('Project', '프로젝트', 'プロジェクト'),
  versionOf: words('{{version}} (latest of {{count}})', '{{version}} (전체 {{count}}개 중 최신)', '{{version}}（全{{count}}件中の最新）'),
  versionShown: words('{{version}} of {{count}}', '{{version}} (전체 {{count}}개 중)', '{{version}}（全{{count}}件中）'),
  savedAtBy: words('Saved', '저장', '保存'),
  savedValue: words('{{when}} by {{name}}', '{{when}} · {{name}}', '{{when}}・{{name}}'),
  template: words('Template', '템플릿', 'テンプレート'),
  templateValue: words('{{title}}, version {{version}}', '{{title}}, 버전 {{version}}', '{{title}}、バージョン {{version}}'),
  contentHash: words('SHA-256 of this version', '이 버전의 SHA-256', 'このバージョンの SHA-256'),
  printedHash: words('SHA-256 of the printed content', '인쇄된 내용의 SHA-256', '印刷された内容の SHA-256'),
  changedAfterSaving: words('Changed after saving', '저장 후 변경됨', '保存後に変更'),
  changedExplained: words(
    'The stored content of this version no longer matches the SHA-256 taken when it was saved.',
    '이 버전의 저장된 내용이 저장할 때 계산한 SHA-256과 더 이상 일치하지 않습니다.',
    'このバージョンの保存内容が、保存時に計算した SHA-256 と一致しなくなっています。',
  ),
  neverSaved: words(
    'This note has no saved version yet; there is no content to print.',
    '이 노트에는 아직 저장된 버전이 없어 인쇄할 내용이 없습니다.',
    'このノートにはまだ保存されたバージョンがないため、印刷する内容がありません。',
  ),

  // Signature manifest.
  account: words('Account', '계정', 'アカウント'),
  signatureStatus: words('Status', '상태', 'ステータス'),
  signedAt: words('Signed at', '서명 시각', '署名日時'),
  declinedAt: words('Declined at', '거절 시각', '辞退日時'),
  cancelledAt: words('Cancelled at (project closed)', '취소 시각 (프로젝트 종료)', '取消日時（プロジェクト終了）'),
  signedVersion: words('Signed version', '서명된 버전', '署名されたバージョン'),
  signedHash: words('SHA-256 of the signed content', '서명한 내용의 SHA-256', '署名された内容の SHA-256'),
  currentHash: words('SHA-256 of the stored content now', '현재 저장된 내용의 SHA-256', '現在保存されている内容の SHA-256'),
  intact: words('Content matches the signature', '내용이 서명과 일치합니다', '内容は署名と一致しています'),
  timestamp: words('Trusted time-stamp (RFC 3161)', '신뢰 타임스탬프 (RFC 3161)', 'トラステッドタイムスタンプ（RFC 3161）'),
  timestampPendingExplained: words(
    'The signature is committed; no authority had answered when this was printed.',
    '서명은 완료되었으나, 인쇄할 때까지 타임스탬프 기관이 응답하지 않았습니다.',
    '署名は完了していますが、印刷時点でタイムスタンプ局はまだ応答していませんでした。',
  ),
  timestampFailedExplained: words(
    'No authority answered after every retry: this signature has no trusted time.',
    '모든 재시도 후에도 기관이 응답하지 않아 이 서명에는 신뢰 시각이 없습니다.',
    'すべての再試行でも局が応答しなかったため、この署名には信頼できる時刻がありません。',
  ),

  // Version history.
  history: words('Version history', '버전 기록', 'バージョン履歴'),
  noHistory: words('No version has been saved.', '저장된 버전이 없습니다.', '保存されたバージョンはありません。'),
  historySavedAt: words('Saved at', '저장 시각', '保存日時'),
  historySavedBy: words('Saved by', '저장한 사람', '保存した人'),
  historyHash: words('SHA-256', 'SHA-256', 'SHA-256'),
  historyShown: words('printed above', '위에 인쇄됨', '上記に印刷'),

  // Changes since the previous version (optional).
  changesSince: words('Changes since version {{version}}', '버전 {{version}} 이후 변경 사항', 'バージョン {{version}} からの変更'),
  changesFirst: words('Changes: the first saved version', '변경 사항: 처음 저장된 버전', '変更：最初に保存されたバージョン'),
  changeAdded: words('Added', '추가', '追加'),
  changeChanged: words('Changed', '변경', '変更'),
  changeRemoved: words('Removed', '삭제', '削除'),

  // Comment threads (optional appendix).
  comments: words('Comments', '댓글', 'コメント'),
  commentsNotSigned: words(
    'Comments are remarks beside the note. They are not part of the saved versions or of the signed content.',
    '댓글은 노트 옆에 남긴 의견이며, 저장된 버전이나 서명된 내용에 포함되지 않습니다.',
    'コメントはノートの横に残された意見であり、保存されたバージョンや署名された内容には含まれません。',
  ),
  commentsNone: words('No comments.', '댓글이 없습니다.', 'コメントはありません。'),
  commentOnBlock: words('On the whole block', '블록 전체', 'ブロック全体'),
  commentOnDeletedText: words('On deleted text:', '삭제된 텍스트:', '削除されたテキスト：'),
  commentDeleted: words('The first comment was deleted.', '첫 댓글이 삭제되었습니다.', '最初のコメントは削除されました。'),
  commentEdited: words('edited', '수정됨', '編集済み'),
  commentResolved: words('Resolved by {{name}}, {{when}}', '{{name}}님이 해결함, {{when}}', '{{name}}さんが解決、{{when}}'),
} as const satisfies Record<string, Localised>;

export type PdfMessage = keyof typeof PDF_MESSAGES;

export const pdfMessage = (key: PdfMessage, lang: Language, params?: Record<string, string | number>): string =>
  fillIn(PDF_MESSAGES[key][lang], params);
