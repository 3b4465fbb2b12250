import shared from '@eln/shared/i18n/ja';
import type { HomeMessages } from './en';

/** ホーム画面の集計の下の欄（あなたを待っていること、マイノート、最近開いた項目、プロジェクトの動き）の日本語の文字列。 */
const ja: HomeMessages = {
  meaning: shared.signature.meaning,
  noteStatus: shared.note.status,
  failed: 'この欄を読み込めませんでした。',
  more: 'さらに表示',
  waiting: {
    title: 'あなたを待っていること',
    signatures: '署名',
    templates: 'テンプレート',
    empty: '待っていることはありません。',
    emptyHint: '署名の依頼、承認するテンプレート、差し戻されたノートがここに表示されます。',
    request: '{{name}}さんが{{meaning}}としての署名を依頼しました',
    declined: '{{name}}さんが署名を辞退し、差し戻されました',
    approve: '{{name}}さんが承認を依頼しました（改訂 {{revision}}）',
    returned: '{{name}}さんが差し戻しました',
    returnedToYou: '差し戻されました',
    sign: '署名',
    review: '確認',
    revise: '修正',
  },
  notes: {
    title: 'マイノート',
    empty: 'すべてのノートが保存済みで、残っている署名はありません。',
    emptyHint: '未保存または署名待ちのあなたのノートがここに表示されます。',
    neverSaved: '未保存',
    changedSinceSave: 'v{{version}} 以降の未保存の変更',
    pending_one: '署名待ち {{count}} 件',
    pending_other: '署名待ち {{count}} 件',
  },
  recent: {
    title: '最近開いた項目',
    empty: 'まだ開いた項目はありません。',
    emptyHint: '開いたノート、テンプレート、スキーマがここに表示されます。',
    kinds: { note: 'ノート', template: 'テンプレート', schema: 'スキーマ' },
  },
  activity: {
    title: 'プロジェクトの動き',
    empty: 'プロジェクトにはまだ動きがありません。',
    emptyHint: '新しいノート、保存されたバージョン、署名、終了したプロジェクト、承認されたテンプレートがここに表示されます。',
    system: 'システム',
    events: {
      noteCreated: '{{actor}}さんが {{note}} を作成しました',
      versionSaved: '{{actor}}さんが {{note}} のバージョン {{version}} を保存しました',
      signatureGiven: '{{actor}}さんが {{note}} に{{meaning}}として署名しました',
      signatureRemoved: '{{actor}}さんが {{note}} から {{signer}}さんの署名を削除しました',
      projectClosed: '{{actor}}さんがプロジェクト {{project}} を終了しました',
      templateApproved: '{{actor}}さんがテンプレート {{template}} をバージョン {{version}} として承認しました',
    },
    reason: '理由: {{reason}}',
  },
  time: {
    justNow: 'たった今',
  },
};

export default ja;
