import type { SharedMessages } from './en.js';

/** 画面とサーバーの印刷物（PDF、レンダリングされたノート）が共通で使う日本語の文字列。 */
const ja: SharedMessages = {
  list: {
    number: '番号',
  },
  project: {
    leader: '責任者',
    participants: '参加者',
    statusLabel: 'ステータス',
    created: '作成日',
    status: { ING: '進行中', C: '完了' },
  },
  note: {
    labNoteNumber: '研究ノート番号',
    labNoteNo: '研究ノート番号',
    title: 'タイトル',
    writer: '作成者',
    version: 'バージョン',
    versionValue: 'バージョン {{version}}',
    notSaved: '未保存',
    importedAuthors: '{{names}}（取り込み）',
    importedBy: '取り込んだ人：{{name}}',
    unknownAuthor: '作成者不明',
    statusLabel: '状態',
    status: { W: '作成中', R: '署名依頼中', T: '署名済み', F: '終了' },
  },
  signature: {
    title: '署名',
    none: 'このノートにはまだ署名が依頼されていません。',
    meaningLabel: '意味',
    meaning: { reviewer: 'レビュアー', participant: '参加者' },
    status: { R: '保留中', T: '署名済み', F: '辞退', C: '終了時に取消' },
    awaiting: '署名待ち',
    printedName: '署名者名',
    comment: 'コメント',
    broken: '破損',
    brokenExplained: 'バージョン{{version}}の保存内容が署名時の内容と一致しなくなっています。この署名は信頼できません。',
  },
  content: {
    untitledImage: '無題の画像',
    attachment: '添付ファイル',
    schemaField: 'フィールド',
    schemaValue: '値',
    schemaEmpty: 'このスキーマには項目がありません。',
    schemaInvalid: 'このスキーマブロックは表示できません。',
    schemaRevision: 'リビジョン {{revision}}',
    dropboxChosen: '{{title}}のコード {{code}}',
    dropboxUnchosen: 'ドロップボックス {{title}}：未選択',
    chartMissing: 'このグラフの元の表が削除されたか、範囲が表の外になっています。',
    chartTypes: {
      bar: '棒グラフ',
      horizontal: '横棒グラフ',
      line: '折れ線グラフ',
      doughnut: 'ドーナツグラフ',
      pie: '円グラフ',
      radar: 'レーダーチャート',
      scatter: '散布図',
    },
  },
  history: {
    changes: {
      added: '追加 {{count}}',
      changed: '変更 {{count}}',
      removed: '削除 {{count}}',
      moved: '移動 {{count}}',
      none: '変更なし',
      separator: '、',
    },
  },
};

export default ja;
