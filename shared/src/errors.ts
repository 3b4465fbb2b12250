import { waitText } from './format.js';
import { interpolate, type Language, type Localised } from './language.js';

/**
 * The error catalogue: every status code the API answers, its HTTP class and its message in every
 * interface language. The codes the product specification names keep their meaning.
 */
export const SUCCESS = '0000';

interface CatalogueEntry {
  http: number;
  message: Localised;
}

const entry = (http: number, en: string, ko: string, ja: string): CatalogueEntry => ({ http, message: { en, ko, ja } });

export const ERROR_CATALOGUE = {
  // Identity
  '1001': entry(422, 'The ID or password is incorrect.', '아이디 또는 비밀번호가 올바르지 않습니다.', 'IDまたはパスワードが正しくありません。'),
  '1002': entry(401, 'Your session has ended. Please sign in again.', '세션이 종료되었습니다. 다시 로그인해 주세요.', 'セッションが終了しました。もう一度サインインしてください。'),
  '1003': entry(403, 'You do not have permission for this.', '권한이 없습니다.', 'この操作を行う権限がありません。'),
  '1004': entry(429, 'Too many failed attempts. Try again in {wait}.', '실패 횟수가 너무 많습니다. {wait} 후에 다시 시도해 주세요.', '失敗回数が多すぎます。{wait}後にもう一度お試しください。'),
  '1005': entry(401, 'Your sign-in has expired. Please sign in again.', '로그인이 만료되었습니다. 다시 로그인해 주세요.', 'サインインの有効期限が切れました。もう一度サインインしてください。'),
  '1006': entry(422, 'This reset link is invalid or has expired.', '재설정 링크가 유효하지 않거나 만료되었습니다.', 'この再設定リンクは無効か、有効期限が切れています。'),
  '1007': entry(422, 'There is a licence problem. Contact your administrator.', '라이선스에 문제가 있습니다. 관리자에게 문의해 주세요.', 'ライセンスに問題があります。管理者にお問い合わせください。'),
  '1008': entry(422, 'This account is deactivated. Contact your administrator.', '비활성화된 계정입니다. 관리자에게 문의해 주세요.', 'このアカウントは無効化されています。管理者にお問い合わせください。'),
  '1009': entry(404, 'No account matches this name and phone number.', '이름과 전화번호에 일치하는 계정이 없습니다.', 'この氏名と電話番号に一致するアカウントはありません。'),
  '1010': entry(500, 'The sign-in token could not be issued.', '토큰 발급 중 오류가 발생했습니다.', 'トークンの発行中にエラーが発生しました。'),
  '1011': entry(500, 'The employee lookup failed.', '직원 조회 중 오류가 발생했습니다.', '社員の照会中にエラーが発生しました。'),
  '1012': entry(500, 'Signing out failed.', '로그아웃 중 오류가 발생했습니다.', 'サインアウト中にエラーが発生しました。'),
  // Licence registration
  '1013': entry(422, 'This licence key is not genuine: it is damaged or was not signed by the vendor.', '정품 라이선스 키가 아닙니다. 키가 손상되었거나 공급사가 서명하지 않았습니다.', '正規のライセンスキーではありません。キーが破損しているか、提供元の署名がありません。'),
  '1014': entry(422, 'This licence key is for another product or does not cover version {version}.', '다른 제품용 라이선스 키이거나 {version} 버전을 지원하지 않습니다.', '別の製品のライセンスキーか、バージョン{version}に対応していません。'),
  '1015': entry(422, 'This licence expired on {date}.', '이 라이선스는 {date}에 만료되었습니다.', 'このライセンスは{date}に期限が切れました。'),
  '1016': entry(422, 'This licence starts on {date}. Register it on or after that day.', '이 라이선스는 {date}부터 유효합니다. 그날 이후에 등록해 주세요.', 'このライセンスは{date}から有効です。その日以降に登録してください。'),
  // Projects and notes (codes named by the product specification)
  '2001': entry(409, 'A project with this name already exists.', '이미 존재하는 프로젝트 이름입니다.', '同じ名前のプロジェクトが既に存在します。'),
  '2002': entry(422, 'The project could not be modified.', '프로젝트 수정 중 오류가 발생했습니다.', 'プロジェクトを変更できませんでした。'),
  '2010': entry(422, 'The note editors could not be released.', '노트 수정자 초기화에 실패했습니다.', 'ノートの編集者を解除できませんでした。'),
  '2011': entry(422, 'The note could not be saved as a draft.', '노트 임시 저장 중 오류가 발생했습니다.', 'ノートを一時保存できませんでした。'),
  '2012': entry(422, 'The note breaks a content rule (table size, nested table or image title).', '노트 내용이 규칙에 맞지 않습니다 (표 크기, 중첩 표 또는 이미지 제목).', 'ノートの内容が規則に反しています（表のサイズ、入れ子の表、画像タイトル）。'),
  '2013': entry(404, 'This note does not exist.', '존재하지 않는 노트입니다.', 'このノートは存在しません。'),
  '2014': entry(422, 'This note has been deleted or can no longer be deleted.', '삭제되었거나 삭제할 수 없는 노트입니다.', 'このノートは削除されたか、削除できません。'),
  '2017': entry(422, 'The note could not be displayed.', '노트를 표시할 수 없습니다.', 'ノートを表示できませんでした。'),
  '2018': entry(409, 'A note with this name already exists in the project.', '프로젝트에 같은 이름의 노트가 이미 있습니다.', 'プロジェクトに同じ名前のノートが既に存在します。'),
  '2019': entry(422, 'The signers could not be changed.', '서명자 수정 중 오류가 발생했습니다.', '署名者を変更できませんでした。'),
  '2020': entry(422, 'The template could not be deleted.', '템플릿 삭제 중 오류가 발생했습니다.', 'テンプレートを削除できませんでした。'),
  '2021': entry(422, 'The note has unsaved changes. Save a version before signing.', '저장되지 않은 변경 사항이 있습니다. 서명하기 전에 버전을 저장해 주세요.', '保存されていない変更があります。署名する前にバージョンを保存してください。'),
  '2022': entry(422, 'A project can be closed only after at least one reviewer has signed a note.', '검토자가 한 명 이상 노트에 서명해야 프로젝트를 종료할 수 있습니다.', 'レビュアーが少なくとも1人ノートに署名するまで、プロジェクトを終了できません。'),
  '2023': entry(422, 'You have no pending signature on this note.', '이 노트에 대기 중인 서명 요청이 없습니다.', 'このノートに保留中の署名依頼はありません。'),
  '2024': entry(422, 'The saved version no longer matches its fingerprint, so it cannot be signed.', '저장된 버전이 지문과 일치하지 않아 서명할 수 없습니다.', '保存されたバージョンがフィンガープリントと一致しないため、署名できません。'),
  '2025': entry(422, 'A reviewer must not have written in the note: {names} wrote in it and can sign only as participant.', '검토자는 노트를 작성하지 않은 사람이어야 합니다. {names}님은 이 노트를 작성했으므로 참여자로만 서명할 수 있습니다.', 'レビュアーはノートを書いていない人でなければなりません。{names}さんはこのノートを書いたため、参加者としてのみ署名できます。'),
  // Lookups and saves the client reports (generic errors of the product specification)
  '3001': entry(500, 'Users could not be loaded.', '사용자 조회 중 오류가 발생했습니다.', 'ユーザーを読み込めませんでした。'),
  '3002': entry(500, 'The dashboard could not be loaded.', '대시보드 조회 중 오류가 발생했습니다.', 'ダッシュボードを読み込めませんでした。'),
  '3003': entry(500, 'Projects could not be loaded.', '프로젝트 조회 중 오류가 발생했습니다.', 'プロジェクトを読み込めませんでした。'),
  '3004': entry(500, 'Notes could not be loaded.', '노트 조회 중 오류가 발생했습니다.', 'ノートを読み込めませんでした。'),
  '3005': entry(500, 'Participants could not be loaded.', '참여자 조회 중 오류가 발생했습니다.', '参加者を読み込めませんでした。'),
  '3006': entry(500, 'Departments could not be loaded.', '부서 조회 중 오류가 발생했습니다.', '部署を読み込めませんでした。'),
  '3007': entry(500, 'Templates could not be loaded.', '템플릿 조회 중 오류가 발생했습니다.', 'テンプレートを読み込めませんでした。'),
  '3008': entry(500, 'Schemas could not be loaded.', '스키마 조회 중 오류가 발생했습니다.', 'スキーマを読み込めませんでした。'),
  '3009': entry(500, 'Dropboxes could not be loaded.', '드롭박스 조회 중 오류가 발생했습니다.', 'ドロップボックスを読み込めませんでした。'),
  '3010': entry(500, 'The licence could not be loaded.', '라이선스 조회 중 오류가 발생했습니다.', 'ライセンスを読み込めませんでした。'),
  '3011': entry(500, 'The audit trail could not be loaded.', '감사 추적 조회 중 오류가 발생했습니다.', '監査証跡を読み込めませんでした。'),
  '3012': entry(500, 'The search failed.', '검색 중 오류가 발생했습니다.', '検索中にエラーが発生しました。'),
  '3013': entry(422, 'The content could not be pasted.', '붙여넣기 중 오류가 발생했습니다.', '貼り付けできませんでした。'),
  '3014': entry(422, 'The file could not be uploaded.', '파일 업로드 중 오류가 발생했습니다.', 'ファイルをアップロードできませんでした。'),
  '3015': entry(500, 'Saving failed.', '저장 중 오류가 발생했습니다.', '保存中にエラーが発生しました。'),
  '3016': entry(422, 'The image could not be uploaded.', '이미지 업로드 중 오류가 발생했습니다.', '画像をアップロードできませんでした。'),
  '3017': entry(422, 'The signature could not be recorded.', '서명 처리 중 오류가 발생했습니다.', '署名を記録できませんでした。'),
  '3019': entry(415, 'This kind of file is not accepted. Images: JPG, JPEG, PNG, GIF. Files: xls, xlsx, pptx, pdf, docx, txt, zip, rar, tar, odt.', '허용되지 않는 파일 형식입니다. 이미지: JPG, JPEG, PNG, GIF. 파일: xls, xlsx, pptx, pdf, docx, txt, zip, rar, tar, odt.', '受け付けられないファイル形式です。画像: JPG、JPEG、PNG、GIF。ファイル: xls、xlsx、pptx、pdf、docx、txt、zip、rar、tar、odt。'),
  '3020': entry(413, 'The file is too large: images up to 3 MB, files up to 50 MB.', '파일이 너무 큽니다. 이미지는 3MB, 파일은 50MB까지 가능합니다.', 'ファイルが大きすぎます。画像は3MB、ファイルは50MBまでです。'),
  '3018': entry(422, 'The saved content has unsupported characters.', '저장된 내용에 지원하지 않는 문자가 있습니다.', '保存内容にサポートされていない文字が含まれています。'),
  // Schemas
  '4003': entry(422, 'This schema cannot be opened.', '스키마를 열 수 없습니다.', 'このスキーマを開けません。'),
  '4004': entry(409, 'A schema type with this code already exists.', '이미 존재하는 스키마 유형 코드입니다.', '同じコードのスキーマタイプが既に存在します。'),
  '4005': entry(409, 'A schema type with this name already exists.', '이미 존재하는 스키마 유형 이름입니다.', '同じ名前のスキーマタイプが既に存在します。'),
  '4006': entry(422, 'A schema sent with a number does not belong to this schema type.', '이 스키마 유형에 속하지 않는 스키마 번호가 있습니다.', 'このスキーマタイプに属さないスキーマ番号が含まれています。'),
  '4007': entry(415, 'A thumbnail must be a JPG, PNG or GIF image whose content matches its file name.', '썸네일은 파일 이름과 내용이 일치하는 JPG, PNG 또는 GIF 이미지여야 합니다.', 'サムネイルは、ファイル名と内容が一致するJPG、PNG、GIF画像でなければなりません。'),
  '4008': entry(413, 'The thumbnail image is too large: at most 3 MB.', '썸네일 이미지가 너무 큽니다. 3MB까지 가능합니다.', 'サムネイル画像が大きすぎます。3MBまでです。'),
  '4009': entry(422, 'The image could not be read, or it has too many pixels. Choose another JPG, PNG or GIF image.', '이미지를 읽을 수 없거나 픽셀 수가 너무 많습니다. 다른 JPG, PNG 또는 GIF 이미지를 선택해 주세요.', '画像を読み取れないか、画素数が多すぎます。別のJPG、PNG、GIF画像を選んでください。'),
  // Dropboxes
  '4501': entry(422, 'This file is not a CSV text file. Save the sheet as CSV (UTF-8 or CP949) and try again.', 'CSV 텍스트 파일이 아닙니다. 시트를 CSV(UTF-8 또는 CP949)로 저장한 뒤 다시 시도해 주세요.', 'CSVテキストファイルではありません。シートをCSV（UTF-8またはCP949）で保存してからもう一度お試しください。'),
  '4502': entry(422, 'The first line of the CSV must be the header code,name.', 'CSV의 첫 줄은 code,name 머리글이어야 합니다.', 'CSVの1行目は見出し code,name でなければなりません。'),
  '4503': entry(422, 'Some rows cannot be stored, so nothing was stored. Fix the marked rows and import again.', '저장할 수 없는 행이 있어 아무것도 저장하지 않았습니다. 표시된 행을 고친 뒤 다시 가져와 주세요.', '保存できない行があるため、何も保存していません。示された行を直してもう一度取り込んでください。'),
  '4504': entry(409, 'A dropbox with this name already exists.', '이미 존재하는 드롭박스 이름입니다.', '同じ名前のドロップボックスが既に存在します。'),
  // People (administration)
  '5001': entry(409, 'A user with this ID already exists.', '이미 사용 중인 아이디입니다.', 'このIDは既に使用されています。'),
  '5002': entry(422, 'You cannot remove your own administrator rights or deactivate yourself.', '자신의 관리자 권한을 해제하거나 자신을 비활성화할 수 없습니다.', '自分の管理者権限を外したり、自分を無効化したりすることはできません。'),
  '5003': entry(422, 'The department does not exist.', '존재하지 않는 부서입니다.', 'この部署は存在しません。'),
  '5004': entry(422, 'Some participants do not exist or are deactivated.', '존재하지 않거나 비활성화된 참여자가 있습니다.', '存在しないか無効化された参加者が含まれています。'),
  // Departments and directory
  '6001': entry(502, 'The departments could not be synchronised with the directory.', '부서 동기화 중 오류가 발생했습니다.', '部署をディレクトリと同期できませんでした。'),
  '6002': entry(422, 'The directory URL is invalid.', '디렉터리 URL이 올바르지 않습니다.', 'ディレクトリのURLが正しくありません。'),
  '6003': entry(404, 'No department was found.', '부서가 없습니다.', '部署が見つかりません。'),
  '6004': entry(404, 'No users were found.', '사용자가 없습니다.', 'ユーザーが見つかりません。'),
  '6005': entry(422, 'A department cannot be moved under itself or one of its own sub-departments.', '부서를 자기 자신이나 하위 부서 아래로 옮길 수 없습니다.', '部署を自分自身やその下位部署の下に移動することはできません。'),
  '6006': entry(409, 'A department with this code already exists.', '이미 존재하는 부서 코드입니다.', '同じコードの部署が既に存在します。'),
  // Templates
  '7002': entry(409, 'A template with this name already exists.', '이미 존재하는 템플릿 이름입니다.', '同じ名前のテンプレートが既に存在します。'),
  '7003': entry(422, 'This template is ready to be approved.', '승인할 수 있는 템플릿입니다.', 'このテンプレートは承認できます。'),
  '7004': entry(422, 'Use a version such as 1.1: a number that is not 0 and not a whole number.', '1.1과 같은 버전을 입력해 주세요. 0이나 정수는 사용할 수 없습니다.', '1.1のようなバージョンを入力してください。0や整数は使えません。'),
  '7005': entry(422, 'The version must be greater than the last approved version, {last}.', '버전은 마지막으로 승인된 버전 {last}보다 커야 합니다.', 'バージョンは最後に承認されたバージョン{last}より大きくなければなりません。'),
  '7006': entry(422, 'A template is approved by someone other than its author and the person who checked it in.', '템플릿은 작성자와 제출자가 아닌 다른 사람이 승인해야 합니다.', 'テンプレートは作成者と提出者以外の人が承認する必要があります。'),
  '7007': entry(409, 'This template is not waiting for approval.', '승인 대기 중인 템플릿이 아닙니다.', 'このテンプレートは承認待ちではありません。'),
  '7008': entry(422, 'This template has no approved version to start a note from.', '노트를 만들 수 있는 승인된 템플릿 버전이 없습니다.', 'ノートを作成できる承認済みのテンプレートバージョンがありません。'),
  '7009': entry(409, 'This template can be changed only as a draft. Open it for editing first.', '템플릿은 초안 상태에서만 변경할 수 있습니다. 먼저 편집을 시작해 주세요.', 'テンプレートは下書きの状態でのみ変更できます。先に編集を開始してください。'),
  // Request level
  '9001': entry(400, 'Some fields are not valid.', '입력값을 확인해 주세요.', '入力内容を確認してください。'),
  '9002': entry(404, 'The record does not exist.', '존재하지 않는 항목입니다.', '該当するデータが存在しません。'),
  '9003': entry(413, 'The request is too large.', '요청이 너무 큽니다.', 'リクエストが大きすぎます。'),
  '9004': entry(400, 'The request could not be read.', '요청을 읽을 수 없습니다.', 'リクエストを読み取れませんでした。'),
  '9005': entry(404, 'This call does not exist.', '존재하지 않는 요청입니다.', 'この呼び出しは存在しません。'),
  '9006': entry(409, 'Someone else changed this in the meantime. Reload and try again.', '다른 사용자가 먼저 변경했습니다. 새로고침 후 다시 시도해 주세요.', '他のユーザーが先に変更しました。再読み込みしてもう一度お試しください。'),
  '9007': entry(415, 'Requests must be sent as JSON.', '요청은 JSON 형식이어야 합니다.', 'リクエストはJSON形式で送信してください。'),
  '9008': entry(503, 'The service is not available right now. Try again shortly.', '서비스를 일시적으로 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.', 'サービスは一時的に利用できません。しばらくしてからお試しください。'),
  '9009': entry(400, 'A value could not be stored as sent (a NUL, a broken character or a malformed value).', '입력값을 그대로 저장할 수 없습니다 (NUL, 깨진 문자 또는 잘못된 형식).', '入力値をそのまま保存できません（NUL、壊れた文字、または不正な形式）。'),
  '9010': entry(400, 'A value is out of range: a date that does not exist or a number that is too large.', '값이 허용 범위를 벗어났습니다. 존재하지 않는 날짜이거나 너무 큰 숫자입니다.', '値が範囲外です。存在しない日付か、大きすぎる数値です。'),
  '9011': entry(422, 'This refers to something that does not exist.', '존재하지 않는 항목을 참조하고 있습니다.', '存在しない項目を参照しています。'),
  '9012': entry(409, 'This already exists.', '이미 존재합니다.', '既に存在します。'),
  '9013': entry(429, 'Too many connections are open from your address. Close some tabs or try again shortly.', '현재 주소에서 열린 연결이 너무 많습니다. 일부 탭을 닫거나 잠시 후 다시 시도해 주세요.', 'お使いのアドレスから開かれている接続が多すぎます。いくつかのタブを閉じるか、しばらくしてからお試しください。'),
  '9999': entry(500, 'An unexpected error occurred.', '예상치 못한 오류가 발생했습니다.', '予期しないエラーが発生しました。'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type StatusCode = ErrorCode | typeof SUCCESS;

/** Named codes, so that code reads `ERR.tooManyAttempts` rather than a bare number. */
export const ERR = {
  badCredentials: '1001',
  sessionEnded: '1002',
  forbidden: '1003',
  tooManyAttempts: '1004',
  refreshInvalid: '1005',
  resetInvalid: '1006',
  licence: '1007',
  accountDisabled: '1008',
  noMatchingAccount: '1009',
  tokenIssue: '1010',
  employeeLookup: '1011',
  signOutFailed: '1012',
  licenceNotGenuine: '1013',
  licenceOtherProduct: '1014',
  licenceExpired: '1015',
  licenceNotYetValid: '1016',
  projectDuplicate: '2001',
  projectModify: '2002',
  noteEditorsClear: '2010',
  noteTemp: '2011',
  noteContent: '2012',
  noteMissing: '2013',
  noteDeleted: '2014',
  viewer: '2017',
  noteDuplicate: '2018',
  signerModify: '2019',
  templateDelete: '2020',
  unsavedChanges: '2021',
  noReviewerSignature: '2022',
  noPendingSignature: '2023',
  versionTampered: '2024',
  reviewerWrote: '2025',
  userLookup: '3001',
  dashboardLookup: '3002',
  projectLookup: '3003',
  noteLookup: '3004',
  participantLookup: '3005',
  departmentLookup: '3006',
  templateLookup: '3007',
  schemaLookup: '3008',
  dropboxLookup: '3009',
  licenceLookup: '3010',
  auditLookup: '3011',
  searchFailed: '3012',
  pasteFailed: '3013',
  fileUpload: '3014',
  saveFailed: '3015',
  imageUpload: '3016',
  signatureFailed: '3017',
  unsupportedCharacters: '3018',
  fileType: '3019',
  fileTooLarge: '3020',
  schemaCheck: '4003',
  schemaCodeDuplicate: '4004',
  schemaTitleDuplicate: '4005',
  schemaForeign: '4006',
  thumbnailType: '4007',
  thumbnailTooLarge: '4008',
  thumbnailUnreadable: '4009',
  dropboxNotCsv: '4501',
  dropboxCsvHeader: '4502',
  dropboxRows: '4503',
  dropboxDuplicate: '4504',
  userDuplicate: '5001',
  selfDemotion: '5002',
  departmentMissing: '5003',
  participantMissing: '5004',
  departmentSync: '6001',
  directoryUrl: '6002',
  noDepartment: '6003',
  noUsers: '6004',
  departmentCycle: '6005',
  departmentDuplicate: '6006',
  templateDuplicate: '7002',
  templateReady: '7003',
  templateVersionInvalid: '7004',
  templateVersionNotGreater: '7005',
  templateOwnApproval: '7006',
  templateNotChecking: '7007',
  templateNotApproved: '7008',
  templateNotDraft: '7009',
  validation: '9001',
  notFound: '9002',
  tooLarge: '9003',
  malformed: '9004',
  unknownCall: '9005',
  conflict: '9006',
  unsupportedMediaType: '9007',
  unavailable: '9008',
  unstorableValue: '9009',
  outOfRange: '9010',
  missingReference: '9011',
  duplicate: '9012',
  tooManyConnections: '9013',
  unexpected: '9999',
} as const satisfies Record<string, ErrorCode>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].http;
}

export function errorMessage(code: string, language: Language, params?: Record<string, string | number>): string {
  const known = isErrorCode(code) ? code : ERR.unexpected;
  // A wait is given in seconds and said in minutes and seconds, in the reader's language.
  const seconds = params?.seconds;
  const withWait = typeof seconds === 'number' ? { ...params, wait: waitText(seconds, language) } : params;
  return interpolate(ERROR_CATALOGUE[known].message[language], withWait);
}
