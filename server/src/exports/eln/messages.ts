import { interpolate, type Language, type Localised, type SignatureType } from '@eln/shared';

/**
 * The words an .eln archive and an imported note add to what people wrote, in every interface language:
 * how a signature reads in the archive, how to check the archive, and the history section an imported
 * note ends with.
 */
const words = (en: string, ko: string, ja: string): Localised => ({ en, ko, ja });

export const ELN_MESSAGES = {
  commentOn: words('On “{quote}”.', '“{quote}”에 대한 댓글.', '「{quote}」へのコメント。'),
  commentOnDeletedText: words(
    'The text it was about has been deleted.',
    '댓글이 가리키던 텍스트는 삭제되었습니다.',
    'コメント対象のテキストは削除されました。',
  ),
  commentNotSigned: words(
    'A comment beside the note: not part of its saved versions or of the signed content.',
    '노트 옆에 남긴 댓글이며, 저장된 버전이나 서명된 내용에 포함되지 않습니다.',
    'ノートの横に残されたコメントであり、保存されたバージョンや署名された内容には含まれません。',
  ),
  rootName: words('{project}: .eln export of {date}', '{project}: {date} .eln 내보내기', '{project}：{date}の.elnエクスポート'),
  rootDescription: words(
    'Lab notes of the project {project}, exported by {exporter} on {time}. To check it offline: minisign -Vm ro-crate-metadata.json -p {key} (the signature covers ro-crate-metadata.json, which lists the SHA-256 of every file), then sha256sum -c SHA256SUMS in this folder.',
    '{project} 프로젝트의 실험 노트입니다. {exporter}님이 {time}에 내보냈습니다. 오프라인 확인: minisign -Vm ro-crate-metadata.json -p {key} (서명은 모든 파일의 SHA-256을 나열한 ro-crate-metadata.json을 보증합니다), 이어서 이 폴더에서 sha256sum -c SHA256SUMS.',
    'プロジェクト{project}の実験ノートです。{exporter}さんが{time}にエクスポートしました。オフラインでの確認：minisign -Vm ro-crate-metadata.json -p {key}（署名は全ファイルのSHA-256を列挙したro-crate-metadata.jsonを保証します）、続いてこのフォルダーで sha256sum -c SHA256SUMS。',
  ),
  licence: words(
    'Internal record of {organization}: no licence to reuse is granted.',
    '{organization}의 내부 기록입니다. 재사용 권한은 부여되지 않습니다.',
    '{organization}の内部記録です。再利用の許諾はありません。',
  ),
  publicKey: words(
    "Public key that checks this archive's signature (minisign)",
    '이 아카이브의 서명을 확인하는 공개 키 (minisign)',
    'このアーカイブの署名を確認する公開鍵（minisign）',
  ),
  checksums: words('SHA-256 of every file, for sha256sum -c', 'sha256sum -c용 모든 파일의 SHA-256', 'sha256sum -c 用の全ファイルのSHA-256'),
  versionBlocks: words(
    'Version {version}: its blocks (JSON), fingerprint {hash}',
    '버전 {version}: 블록 (JSON), 지문 {hash}',
    'バージョン{version}：ブロック（JSON）、フィンガープリント {hash}',
  ),
  versionHtml: words('Version {version} as a web page', '버전 {version} 웹 페이지', 'バージョン{version}のウェブページ'),
  versionPdf: words('Version {version} as PDF', '버전 {version} PDF', 'バージョン{version}のPDF'),
  draftBlocks: words(
    'Unsaved draft: the blocks (JSON) of a note never saved, which is no version and was never signed',
    '저장하지 않은 초안: 한 번도 저장하지 않은 노트의 블록 (JSON). 버전이 아니며 서명된 적이 없습니다',
    '未保存の下書き：一度も保存されていないノートのブロック（JSON）。バージョンではなく、署名されたこともありません',
  ),
  draftHtml: words('Unsaved draft as a web page', '저장하지 않은 초안 웹 페이지', '未保存の下書きのウェブページ'),
  pdfCopiesName: words('PDF copies of the notes', '노트의 PDF 사본', 'ノートのPDFコピー'),
  pdfCopiesIncluded: words(
    "Each note's latest saved version is also included as PDF.",
    '각 노트의 최신 저장 버전이 PDF로도 들어 있습니다.',
    '各ノートの最新の保存バージョンはPDFでも含まれています。',
  ),
  pdfCopiesNoBrowser: words(
    'This archive holds no PDF copies of the notes: the server that made it cannot print PDFs (Chromium is not installed). Every saved version is complete in its JSON and HTML files.',
    '이 아카이브에는 노트의 PDF 사본이 없습니다. 아카이브를 만든 서버가 PDF를 인쇄할 수 없습니다 (Chromium 미설치). 저장된 모든 버전은 JSON 및 HTML 파일에 빠짐없이 들어 있습니다.',
    'このアーカイブにはノートのPDFコピーが含まれていません。作成したサーバーがPDFを印刷できません（Chromium未インストール）。保存されたすべてのバージョンはJSONとHTMLのファイルに完全に含まれています。',
  ),
  pdfCopiesNotMade: words(
    'This archive holds no PDF copies of the notes. Every saved version is complete in its JSON and HTML files.',
    '이 아카이브에는 노트의 PDF 사본이 없습니다. 저장된 모든 버전은 JSON 및 HTML 파일에 빠짐없이 들어 있습니다.',
    'このアーカイブにはノートのPDFコピーが含まれていません。保存されたすべてのバージョンはJSONとHTMLのファイルに完全に含まれています。',
  ),
  fileChanged: words(
    'Warning: the stored bytes no longer match the SHA-256 recorded at upload ({hash}).',
    '경고: 저장된 파일이 업로드할 때 기록한 SHA-256({hash})과 더 이상 일치하지 않습니다.',
    '警告：保存されたファイルが、アップロード時に記録したSHA-256（{hash}）と一致しなくなっています。',
  ),
  fileMissing: words(
    'The file {name} (SHA-256 {hash} at upload) is missing from storage and is not included.',
    '{name} 파일(업로드할 때 SHA-256 {hash})이 저장소에 없어 포함하지 못했습니다.',
    'ファイル {name}（アップロード時のSHA-256 {hash}）は保存領域になく、含まれていません。',
  ),
  signatureName: words('{meaning} signature', '{meaning} 서명', '{meaning}署名'),
  signed: words(
    '{meaning} signature of {signer} (printed name “{printed}”) on version {version}, {time} ({zone}). SHA-256 of the signed content: {hash}. {integrity}',
    '{signer}님의 {meaning} 서명 (서명 이름 “{printed}”), 버전 {version}, {time} ({zone}). 서명한 내용의 SHA-256: {hash}. {integrity}',
    '{signer}さんの{meaning}署名（署名名「{printed}」）、バージョン{version}、{time}（{zone}）。署名した内容のSHA-256：{hash}。{integrity}',
  ),
  intact: words(
    'The stored content still matches what was signed.',
    '저장된 내용이 서명한 내용과 일치합니다.',
    '保存された内容は署名した内容と一致しています。',
  ),
  broken: words(
    'BROKEN: the stored content no longer matches what was signed.',
    '손상됨: 저장된 내용이 서명한 내용과 더 이상 일치하지 않습니다.',
    '破損：保存された内容が署名した内容と一致しなくなっています。',
  ),
  requested: words(
    '{meaning} signature requested from {signer}, not given.',
    '{signer}님에게 {meaning} 서명을 요청했으나 아직 서명하지 않았습니다.',
    '{signer}さんに{meaning}署名を依頼しましたが、まだ署名されていません。',
  ),
  cancelled: words(
    '{meaning} signature requested from {signer}, not given: the request was cancelled when the project was closed.',
    '{signer}님에게 {meaning} 서명을 요청했으나 서명하지 않았습니다: 프로젝트가 종료되어 요청이 취소되었습니다.',
    '{signer}さんに{meaning}署名を依頼しましたが、署名されませんでした: プロジェクトの終了時に依頼が取り消されました。',
  ),
  declined: words(
    '{meaning} signature declined by {signer}{comment}.',
    '{signer}님이 {meaning} 서명을 거절했습니다{comment}.',
    '{signer}さんが{meaning}署名を辞退しました{comment}。',
  ),
  createdFromTemplate: words(
    'Note created from the template {template} {version}',
    '{template} {version} 템플릿으로 노트 생성',
    'テンプレート{template} {version}からノートを作成',
  ),
  // The history section an imported note ends with.
  importHeading: words('Imported record (history only)', '가져온 기록 (이력 전용)', '取り込んだ記録（履歴のみ）'),
  importIntro: words(
    'Imported from the .eln archive {archive} on {time} by {user}. {signature} The signatures below were given in the original notebook: they are kept as history and are not signatures in this notebook.',
    '{time}에 {user}님이 .eln 아카이브 {archive}에서 가져왔습니다. {signature} 아래 서명은 원래 노트북에서 한 것으로, 이력으로만 보관되며 이 노트북의 서명이 아닙니다.',
    '{time}に{user}さんが.elnアーカイブ{archive}から取り込みました。{signature} 以下の署名は元のノートブックで行われたもので、履歴としてのみ保管され、このノートブックの署名ではありません。',
  ),
  archiveThisServer: words(
    "The archive's signature was verified with this server's key {keyId}.",
    '아카이브 서명을 이 서버의 키 {keyId}로 확인했습니다.',
    'アーカイブの署名をこのサーバーの鍵{keyId}で確認しました。',
  ),
  archiveOtherKey: words(
    "The archive's signature was verified with the key {keyId} shipped with it, which is not this server's key.",
    '아카이브 서명을 함께 들어 있던 키 {keyId}로 확인했습니다. 이 서버의 키가 아닙니다.',
    'アーカイブの署名を同梱の鍵{keyId}で確認しました。このサーバーの鍵ではありません。',
  ),
  archiveAddedKey: words(
    "The archive's signature was verified with the key {keyId} of {name}, which an administrator added here.",
    '아카이브 서명을 관리자가 이곳에 추가한 {name}의 키 {keyId}로 확인했습니다.',
    'アーカイブの署名を、管理者がここに追加した{name}の鍵{keyId}で確認しました。',
  ),
  archiveUnknownKey: words(
    'The archive is signed by a key unknown here ({keyId}): its signature is not verified yet; it is kept with the import record and verified when an administrator adds the key (Admin → Download).',
    '아카이브는 이 서버가 모르는 키({keyId})로 서명되어 있습니다. 서명은 아직 확인하지 못했으며, 가져오기 기록에 보관해 두었다가 관리자가 키를 추가하면(관리 → 다운로드) 확인합니다.',
    'アーカイブはこのサーバーが知らない鍵（{keyId}）で署名されています。署名はまだ確認できていません。取り込みの記録に保管し、管理者が鍵を追加したとき（管理 → ダウンロード）に確認します。',
  ),
  archiveUnsigned: words(
    'The archive was not signed; the SHA-256 of each file that lists one was checked.',
    '아카이브에 서명이 없었습니다. SHA-256이 적힌 파일은 모두 확인했습니다.',
    'アーカイブには署名がありませんでした。SHA-256が記載されたファイルはすべて確認しました。',
  ),
  originalNote: words('Original note: {number} ({status}).', '원래 노트: {number} ({status}).', '元のノート：{number}（{status}）。'),
  originalNoteNumber: words('Original note: {number}.', '원래 노트: {number}.', '元のノート：{number}。'),
  originalNoteUnnumbered: words('Original record: {name}.', '원래 기록: {name}.', '元の記録：{name}。'),
  originalAuthors: words(
    'Written by {names} in the original notebook.',
    '원래 노트북의 작성자: {names}.',
    '元のノートブックでの作成者：{names}。',
  ),
  originalUnsaved: words(
    'Never saved in the original notebook: imported as an unsaved draft, with no version.',
    '원래 노트북에서 한 번도 저장하지 않은 노트입니다. 버전 없이 저장하지 않은 초안으로 가져왔습니다.',
    '元のノートブックで一度も保存されていないノートです。バージョンのない未保存の下書きとして取り込みました。',
  ),
  originalDates: words(
    'Created {created} in the original notebook; last changed {modified}.',
    '원래 노트북에서 {created}에 생성, {modified}에 마지막 수정.',
    '元のノートブックで{created}に作成、{modified}に最終更新。',
  ),
  originalProperties: words('Metadata in the original notebook', '원래 노트북의 메타데이터', '元のノートブックのメタデータ'),
  propertyColumns: words('Name|Value|Unit', '이름|값|단위', '名前|値|単位'),
  fileNotHashChecked: words(
    'Not hash-checked: the archive gives no SHA-256 for the file {name} (none, or a value that is not one), so its bytes could not be checked against the archive.',
    '해시 미확인: 아카이브에 {name} 파일의 SHA-256이 없거나 SHA-256이 아닌 값이어서 내용을 확인하지 못했습니다.',
    'ハッシュ未確認：アーカイブにファイル{name}のSHA-256がない（またはSHA-256ではない値の）ため、内容を確認できませんでした。',
  ),
  originalVersion: words(
    'Version {version} saved {time} by {name}.',
    '버전 {version}: {time}, {name}님 저장.',
    'バージョン{version}：{time}、{name}さんが保存。',
  ),
  originalComment: words('Comment by {name}, {time}: {text}', '{name}님의 코멘트, {time}: {text}', '{name}さんのコメント、{time}：{text}'),
  fileSkipped: words(
    'Not imported: the file {name} ({reason}).',
    '가져오지 않음: {name} 파일 ({reason}).',
    '取り込んでいません：ファイル{name}（{reason}）。',
  ),
  fileTypeRefused: words('a type this notebook does not accept', '이 노트북이 받지 않는 형식', 'このノートブックが受け付けない形式'),
  fileTooLarge: words('larger than this notebook accepts', '이 노트북이 받는 크기보다 큼', 'このノートブックが受け付けるサイズを超過'),
  untitledProject: words('Imported project', '가져온 프로젝트', '取り込んだプロジェクト'),
  untitledNote: words('Imported note', '가져온 노트', '取り込んだノート'),
  unknownPerson: words('unknown', '알 수 없음', '不明'),

  // Trusted time-stamps (RFC 3161): the files that check them offline, and their README.
  timestampsReadme: words(
    'How to check the trusted time-stamps (RFC 3161) of this archive offline with OpenSSL',
    '이 아카이브의 신뢰 타임스탬프(RFC 3161)를 OpenSSL로 오프라인 확인하는 방법',
    'このアーカイブのトラステッドタイムスタンプ（RFC 3161）を OpenSSL でオフライン確認する方法',
  ),
  timestampsIntro: words(
    "Trusted time-stamps (RFC 3161) in this archive\n\nEach record below was time-stamped by an outside time-stamping authority, which signed the SHA-256 (or SHA-512) of exactly the bytes of its .json file at the time it names. For each there are three files: the stamped data (.json), the authority's answer (.tsr) and the certificate chain this notebook trusted for that authority (.pem). In this folder, run the command given for a record: OpenSSL prints \"Verification: OK\" when the token proves that exactly this data existed at the token's time, signed by a certificate of that chain. The .json names what it stands for: a version's content by its SHA-256 (the blocksHash of that version's v<n>.json), a signature by who signed which version as what and when.",
    '이 아카이브의 신뢰 타임스탬프(RFC 3161)\n\n아래 각 기록은 외부 타임스탬프 기관이 타임스탬프를 찍었습니다. 기관은 .json 파일 바이트 그대로의 SHA-256(또는 SHA-512)에 표시된 시각으로 서명했습니다. 기록마다 파일이 세 개 있습니다: 타임스탬프를 찍은 데이터(.json), 기관의 응답(.tsr), 이 노트가 그 기관에 대해 신뢰한 인증서 체인(.pem). 이 폴더에서 기록마다 적힌 명령을 실행하세요. 토큰이 바로 이 데이터가 토큰의 시각에 존재했고 그 체인의 인증서로 서명되었음을 증명하면 OpenSSL이 "Verification: OK"를 출력합니다. .json은 무엇을 가리키는지 적고 있습니다: 버전은 내용의 SHA-256(해당 버전 v<n>.json의 blocksHash)으로, 서명은 누가 어느 버전에 어떤 의미로 언제 서명했는지로.',
    'このアーカイブのトラステッドタイムスタンプ（RFC 3161）\n\n以下の各記録は外部のタイムスタンプ局がタイムスタンプを付けました。局は .json ファイルのバイトそのものの SHA-256（または SHA-512）に、示された時刻で署名しています。記録ごとに3つのファイルがあります：スタンプされたデータ（.json）、局の応答（.tsr）、このノートがその局について信頼した証明書チェーン（.pem）。このフォルダーで記録ごとのコマンドを実行してください。トークンが、まさにこのデータがトークンの時刻に存在し、そのチェーンの証明書で署名されたことを証明すると、OpenSSL は「Verification: OK」と表示します。.json は何を表すかを記しています：バージョンは内容の SHA-256（そのバージョンの v<n>.json の blocksHash）、署名は誰がどのバージョンにどの意味でいつ署名したか。',
  ),
  stampOfVersion: words('{note}, version {version}', '{note}, 버전 {version}', '{note}、バージョン{version}'),
  stampOfSignature: words(
    '{note}, signature of {signer} as {meaning} on version {version}',
    '{note}, {signer}님의 {meaning} 서명 (버전 {version})',
    '{note}、{signer}さんの{meaning}としての署名（バージョン{version}）',
  ),
  stampStamped: words('Time-stamped {time} by {authority}.', '{authority} 타임스탬프 {time}.', '{authority} によるタイムスタンプ {time}。'),
  stampPending: words(
    'Time-stamp pending: the authority had not answered when this archive was made; there is no token to check.',
    '타임스탬프 대기 중: 이 아카이브를 만들 때 기관이 아직 응답하지 않아 확인할 토큰이 없습니다.',
    'タイムスタンプ待ち：このアーカイブの作成時に局はまだ応答しておらず、確認するトークンはありません。',
  ),
  stampFailed: words(
    'Time-stamp failed: no authority answered after every retry; there is no token to check.',
    '타임스탬프 실패: 모든 재시도 후에도 기관이 응답하지 않아 확인할 토큰이 없습니다.',
    'タイムスタンプ失敗：すべての再試行でも局が応答せず、確認するトークンはありません。',
  ),
  stampData: words(
    'The exact bytes time-stamped for {what} (openssl ts -verify -data)',
    '{what}에 대해 타임스탬프를 찍은 바이트 그대로 (openssl ts -verify -data)',
    '{what}についてタイムスタンプを付けたバイトそのもの（openssl ts -verify -data）',
  ),
  stampToken: words(
    "The authority's time-stamp response for {what} (openssl ts -verify -in)",
    '{what}에 대한 기관의 타임스탬프 응답 (openssl ts -verify -in)',
    '{what}についての局のタイムスタンプ応答（openssl ts -verify -in）',
  ),
  stampChain: words(
    'The certificate chain trusted for the authority of {what} (openssl ts -verify -CAfile)',
    '{what}의 기관에 대해 신뢰한 인증서 체인 (openssl ts -verify -CAfile)',
    '{what}の局について信頼した証明書チェーン（openssl ts -verify -CAfile）',
  ),
} as const satisfies Record<string, Localised>;

export type ElnMessage = keyof typeof ELN_MESSAGES;

export const elnMessage = (key: ElnMessage, lang: Language, params?: Record<string, string | number>): string =>
  interpolate(ELN_MESSAGES[key][lang], params);

export const SIGNATURE_MEANINGS: Record<SignatureType, Localised> = {
  reviewer: words('reviewer', '검토자', 'レビュアー'),
  participant: words('participant', '참여자', '参加者'),
};

export const NOTE_STATUS_NAMES: Record<'W' | 'R' | 'T' | 'F', Localised> = {
  W: words('being written', '작성 중', '作成中'),
  R: words('awaiting signatures', '서명 대기', '署名待ち'),
  T: words('signed', '서명 완료', '署名済み'),
  F: words('finished', '완료', '完了'),
};
