import { formatZonedTime, waitText } from './format.js';
import { interpolate, type Language } from './language.js';

/**
 * The error catalogue: every status code the API answers, its HTTP class and its English message; the
 * messages in the other interface languages are in `errorMessages/<language>.ts`, typed to cover every
 * code. The codes the product specification names keep their meaning.
 */
export const SUCCESS = '0000';

interface CatalogueEntry {
  http: number;
  en: string;
}

const entry = (http: number, en: string): CatalogueEntry => ({ http, en });

export const ERROR_CATALOGUE = {
  // Identity
  '1001': entry(422, 'The ID or password is incorrect.'),
  '1002': entry(401, 'Your session has ended. Please sign in again.'),
  '1003': entry(403, 'You do not have permission for this.'),
  '1004': entry(429, 'Too many failed attempts. Try again in {wait}.'),
  '1005': entry(401, 'Your sign-in has expired. Please sign in again.'),
  '1006': entry(422, 'This reset link is invalid or has expired.'),
  '1007': entry(422, 'There is a licence problem. Contact your administrator.'),
  '1008': entry(422, 'This account is deactivated. Contact your administrator.'),
  '1009': entry(404, 'No account matches this name and phone number.'),
  '1010': entry(500, 'The sign-in token could not be issued.'),
  '1011': entry(500, 'The employee lookup failed.'),
  '1012': entry(500, 'Signing out failed.'),
  // Licence registration
  '1013': entry(422, 'This licence key is not genuine: it is damaged or was not signed by the vendor.'),
  '1014': entry(422, 'This licence key is for another product or does not cover version {version}.'),
  '1015': entry(422, 'This licence expired on {date}.'),
  '1016': entry(422, 'This licence starts on {date}. Register it on or after that day.'),
  // Single sign-on (OpenID Connect)
  '1017': entry(
    422,
    'No account in this lab notebook matches {userId}, the account you signed in with at your organisation’s single sign-on. Ask your administrator to add you.',
  ),
  '1018': entry(
    422,
    'This single sign-on was not started in this browser, or took longer than {minutes} minutes, so it was refused. Start again from the sign-in page.',
  ),
  '1019': entry(
    422,
    'The single sign-on answer could not be verified for this sign-in, so it was refused. Start again; if it happens again, tell your administrator.',
  ),
  '1020': entry(422, 'This single sign-on answer has already been used or has expired. Start again from the sign-in page.'),
  '1021': entry(
    422,
    'Your organisation’s single sign-on did not sign you in (it answered “{reason}”). Try again, or sign in with your ID and password.',
  ),
  '1022': entry(
    503,
    'Your organisation’s single sign-on cannot be reached right now. Try again shortly, or sign in with your ID and password.',
  ),
  // Projects and notes (codes named by the product specification)
  '2001': entry(409, 'A project with this name already exists.'),
  '2002': entry(422, 'The project could not be modified.'),
  '2010': entry(422, 'The note editors could not be released.'),
  '2011': entry(422, 'The note could not be saved as a draft.'),
  '2012': entry(422, 'The note breaks a content rule (table size, nested table or image title).'),
  '2013': entry(404, 'This note does not exist.'),
  '2014': entry(422, 'This note has been deleted or can no longer be deleted.'),
  '2017': entry(422, 'The note could not be displayed.'),
  '2018': entry(409, 'A note with this name already exists in the project.'),
  '2019': entry(422, 'The signers could not be changed.'),
  '2020': entry(422, 'The template could not be deleted.'),
  '2021': entry(422, 'The note has unsaved changes. Save a version before signing.'),
  '2022': entry(422, 'A project can be closed only after at least one reviewer has signed a note.'),
  '2023': entry(422, 'You have no pending signature on this note.'),
  '2024': entry(422, 'The saved version no longer matches its fingerprint, so it cannot be signed.'),
  '2025': entry(422, 'A reviewer must not have written in the note: {names} wrote in it and can sign only as participant.'),
  '2026': entry(422, 'This project is closed: its notes and signatures can no longer be added or changed.'),
  // Note history
  '2040': entry(404, 'This note has no such saved version.'),
  // Lookups and saves the client reports (generic errors of the product specification)
  '3001': entry(500, 'Users could not be loaded.'),
  '3002': entry(500, 'The dashboard could not be loaded.'),
  '3003': entry(500, 'Projects could not be loaded.'),
  '3004': entry(500, 'Notes could not be loaded.'),
  '3005': entry(500, 'Participants could not be loaded.'),
  '3006': entry(500, 'Departments could not be loaded.'),
  '3007': entry(500, 'Templates could not be loaded.'),
  '3008': entry(500, 'Schemas could not be loaded.'),
  '3009': entry(500, 'Dropboxes could not be loaded.'),
  '3010': entry(500, 'The licence could not be loaded.'),
  '3011': entry(500, 'The audit trail could not be loaded.'),
  '3012': entry(500, 'The search failed.'),
  '3013': entry(422, 'The content could not be pasted.'),
  '3014': entry(422, 'The file could not be uploaded.'),
  '3015': entry(500, 'Saving failed.'),
  '3016': entry(422, 'The image could not be uploaded.'),
  '3017': entry(422, 'The signature could not be recorded.'),
  '3019': entry(
    415,
    'This kind of file is not accepted. Images: JPG, JPEG, PNG, GIF. Files: xls, xlsx, pptx, pdf, docx, txt, zip, rar, tar, odt.',
  ),
  '3020': entry(413, 'The file is too large: images up to 3 MB, files up to 50 MB.'),
  '3018': entry(422, 'The saved content has unsupported characters.'),
  // Schemas
  '4003': entry(422, 'This schema cannot be opened.'),
  '4004': entry(409, 'A schema type with this code already exists.'),
  '4005': entry(409, 'A schema type with this name already exists.'),
  '4006': entry(422, 'A schema sent with a number does not belong to this schema type.'),
  '4007': entry(415, 'A thumbnail must be a JPG, PNG or GIF image whose content matches its file name.'),
  '4008': entry(413, 'The thumbnail image is too large: at most 3 MB.'),
  '4009': entry(422, 'The image could not be read, or it has too many pixels. Choose another JPG, PNG or GIF image.'),
  // Mail (the outbox administrators watch)
  '4711': entry(500, 'The mails could not be loaded.'),
  '4712': entry(404, 'This mail does not exist.'),
  '4713': entry(409, 'Only a mail whose sending failed can be sent again.'),
  // Webhooks
  '5201': entry(500, 'The webhooks could not be loaded.'),
  '5202': entry(404, 'This webhook does not exist.'),
  '5203': entry(422, 'A webhook address must be an https:// URL without a user name or password.'),
  '5204': entry(
    422,
    'The webhook address {host} leads to a private, loopback or link-local network address, which webhooks may not reach.',
  ),
  '5205': entry(422, 'The webhook address {host} could not be found (its name does not resolve).'),
  '5206': entry(422, 'There may be at most {max} webhooks here. Delete one first.'),
  '5207': entry(422, 'A project’s webhook can only be sent the project’s own events, not templates approved or people deactivated.'),
  '5208': entry(404, 'This delivery does not exist.'),
  '5209': entry(409, 'This delivery is still on its way. It can be sent again once it has arrived or failed.'),
  '5210': entry(500, 'The webhook could not be saved.'),
  // Dropboxes
  '4501': entry(422, 'This file is not a CSV text file. Save the sheet as CSV (UTF-8 or CP949) and try again.'),
  '4502': entry(422, 'The first line of the CSV must be the header code,name.'),
  '4503': entry(422, 'Some rows cannot be stored, so nothing was stored. Fix the marked rows and import again.'),
  '4504': entry(409, 'A dropbox with this name already exists.'),
  // My account (a person's own settings)
  '4721': entry(500, 'Your settings could not be loaded.'),
  '4722': entry(500, 'Your settings could not be saved.'),
  // Notifications
  '4701': entry(500, 'Notifications could not be loaded.'),
  '4702': entry(500, 'Notifications could not be marked as read.'),
  '4703': entry(500, 'Live notifications could not be started.'),
  // The home (issue 48)
  '4731': entry(500, 'This part of your home could not be loaded.'),
  // Signature overview
  '4960': entry(500, 'The signature overview could not be loaded.'),
  '4961': entry(429, 'A reminder for this signature request was sent less than {hours} hours ago. The next one can be sent from {at}.'),
  '4962': entry(403, 'Only the person who asked for this signature, or the project leader, can send a reminder.'),
  '4963': entry(422, 'This signature request is no longer waiting for an answer, so no reminder can be sent.'),
  '4964': entry(500, 'The reminder could not be sent.'),
  // Mentions
  '4940': entry(500, 'The people you can mention could not be loaded.'),
  // People (administration)
  '5001': entry(409, 'A user with this ID already exists.'),
  '5002': entry(422, 'You cannot remove your own administrator rights or deactivate yourself.'),
  '5003': entry(422, 'The department does not exist.'),
  '5004': entry(422, 'Some participants do not exist or are deactivated.'),
  // Departments and directory
  '6001': entry(502, 'The departments could not be synchronised with the directory.'),
  '6002': entry(422, 'The directory URL is invalid.'),
  '6003': entry(404, 'No department was found.'),
  '6004': entry(404, 'No users were found.'),
  '6005': entry(422, 'A department cannot be moved under itself or one of its own sub-departments.'),
  '6006': entry(409, 'A department with this code already exists.'),
  '6007': entry(502, 'The directory refused the sign-in of the notebook (bind DN or password).'),
  '6008': entry(409, 'Directory synchronisation is not configured on this server.'),
  '6009': entry(409, 'A synchronisation with the directory is already running. Wait for it to finish.'),
  // Templates
  '7002': entry(409, 'A template with this name already exists.'),
  '7003': entry(422, 'This template is ready to be approved.'),
  '7004': entry(422, 'A template version is neither 0 nor a whole number: use one with a decimal part, such as 1.1.'),
  '7005': entry(422, 'The version must be greater than the last approved version, {last}.'),
  '7006': entry(
    422,
    'A template revision is approved by someone other than its author, the people who wrote in it and the person who checked it in.',
  ),
  '7007': entry(409, 'This template is not waiting for approval.'),
  '7008': entry(422, 'This template has no approved version to start a note from.'),
  '7009': entry(409, 'This template can be changed only as a draft. Open it for editing first.'),
  '7010': entry(403, "Only the template's author or an administrator can do this."),
  '7011': entry(422, 'A template version is a number written with digits and one decimal point, such as 1.1.'),
  '7012': entry(422, 'Write the version with no leading zero before the point and at most four digits on each side, such as 1.5 or 1.05.'),
  // .eln archives (export and import)
  '8001': entry(415, 'This file is not an .eln archive: it is not a ZIP file, or it is damaged.'),
  '8002': entry(422, 'This .eln archive is not laid out as the format requires: exactly one root folder, holding ro-crate-metadata.json.'),
  '8003': entry(422, 'The ro-crate-metadata.json of this archive cannot be read as an RO-Crate description.'),
  '8004': entry(
    422,
    'The signature of this archive does not match its content: ro-crate-metadata.json was changed after signing, or was not signed with the key shipped with it. Nothing was imported.',
  ),
  '8005': entry(
    422,
    'The file {file} does not match the SHA-256 checksum or size recorded in the archive: it was changed or damaged. Nothing was imported.',
  ),
  '8006': entry(422, 'The file {file} listed in the archive is missing from it. Nothing was imported.'),
  '8007': entry(
    413,
    'This archive is too large to import: at most {entries} entries; unpacked at most {archiveRatio} times its own size, and never more than {size}; no entry packed more than {ratio} times.',
  ),
  '8008': entry(422, 'The note “{note}” in this archive cannot be imported: its content does not fit this notebook. Nothing was imported.'),
  '8009': entry(422, "This archive is signed, but the key that checks its signature is neither shipped with it nor this server's own."),
  // Export jobs
  '8010': entry(500, 'The export could not be made. Try again; if it fails again, contact your administrator.'),
  '8011': entry(410, 'This download link has expired. Ask for the file again.'),
  '8012': entry(429, 'You already have {max} exports waiting or running. Wait until some have finished.'),
  '8013': entry(409, 'This export is not finished yet.'),
  '8014': entry(500, 'The export was interrupted because the server stopped. Start it again.'),
  '8015': entry(410, 'The file of this export is no longer kept. Export again.'),
  '8016': entry(503, 'PDF export needs the Chromium browser on the server, which is not installed. Ask your administrator.'),
  '8017': entry(503, 'PDF/A needs Ghostscript on the server, which is not installed. Export a plain PDF, or ask your administrator.'),
  '8018': entry(422, 'This note has no such saved version to export. Save the note first, or choose one of its saved versions.'),
  '8019': entry(
    503,
    'The server is unpacking other archives right now, and this one ({size} unpacked) does not fit beside them. Nothing was imported: try again in a few minutes.',
  ),
  // Trusted time-stamps
  '4801': entry(422, "The certificate chain cannot be read: paste the authority's certificates as PEM (-----BEGIN CERTIFICATE-----)."),
  '4802': entry(422, 'The time-stamping authority did not give a usable token: {reason}'),
  // Comments
  '4901': entry(500, 'The comments could not be loaded.'),
  '4902': entry(500, 'The comment could not be saved.'),
  '4903': entry(422, 'The project is closed: its notes take no more comments.'),
  '4904': entry(404, 'This comment does not exist or was deleted.'),
  '4905': entry(403, 'Only its author can change or delete a comment.'),
  '4906': entry(
    403,
    "Only the note's writer, a signer asked on the note or the project leader can resolve or reopen a thread (on a template: its author or an administrator).",
  ),
  '4907': entry(
    422,
    '{names} cannot read this note, so they cannot be mentioned. The project leader can add them to the project as participants.',
  ),
  '4908': entry(422, 'A comment may mention at most {max} people.'),
  '4909': entry(422, 'This note already holds {max} comment threads.'),
  '4910': entry(422, 'This thread already holds {max} replies.'),
  '4911': entry(422, 'A reply answers the first comment of a thread on the same note.'),
  '4912': entry(409, 'This thread is already resolved.'),
  '4913': entry(409, 'This thread is already open.'),
  '4914': entry(422, 'This thread is resolved: reopen it to reply.'),
  '4915': entry(422, "The comment's place in the text could not be read. Select the text again and comment."),
  '4916': entry(422, '{names} cannot open this template draft, so they cannot be mentioned.'),
  // Request level
  '9001': entry(400, 'Some fields are not valid.'),
  '9002': entry(404, 'The record does not exist.'),
  '9003': entry(413, 'The request is too large.'),
  '9004': entry(400, 'The request could not be read.'),
  '9005': entry(404, 'This call does not exist.'),
  '9006': entry(409, 'Someone else changed this in the meantime. Reload and try again.'),
  '9007': entry(415, 'Requests must be sent as JSON.'),
  '9008': entry(503, 'The service is not available right now. Try again shortly.'),
  '9009': entry(400, 'A value could not be stored as sent (a NUL, a broken character or a malformed value).'),
  '9010': entry(400, 'A value is out of range: a date that does not exist or a number that is too large.'),
  '9011': entry(422, 'This refers to something that does not exist.'),
  '9012': entry(409, 'This already exists.'),
  '9013': entry(429, 'Too many connections are open from your address. Close some tabs or try again shortly.'),
  '9999': entry(500, 'An unexpected error occurred.'),
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code's message in one language other than English. */
export type ErrorMessages = Record<ErrorCode, string>;
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
  ssoUnknownUser: '1017',
  ssoStateMismatch: '1018',
  ssoAnswerRefused: '1019',
  ssoCodeSpent: '1020',
  ssoProviderRefused: '1021',
  ssoProviderDown: '1022',
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
  projectClosed: '2026',
  versionMissing: '2040',
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
  mailLookup: '4711',
  mailMissing: '4712',
  mailNotFailed: '4713',
  webhookLookup: '5201',
  webhookMissing: '5202',
  webhookUrlInvalid: '5203',
  webhookUrlPrivate: '5204',
  webhookUrlUnresolvable: '5205',
  webhookTooMany: '5206',
  webhookProjectEvents: '5207',
  webhookDeliveryMissing: '5208',
  webhookDeliveryUnderway: '5209',
  webhookSaveFailed: '5210',
  exportFailed: '8010',
  exportLinkExpired: '8011',
  exportQueueFull: '8012',
  exportNotReady: '8013',
  exportInterrupted: '8014',
  exportGone: '8015',
  exportNoBrowser: '8016',
  exportNoGhostscript: '8017',
  exportNoVersion: '8018',
  elnImportBusy: '8019',
  timestampChainInvalid: '4801',
  timestampAuthorityFailed: '4802',
  dropboxNotCsv: '4501',
  dropboxCsvHeader: '4502',
  dropboxRows: '4503',
  dropboxDuplicate: '4504',
  accountSettingsLookup: '4721',
  accountSettingsSave: '4722',
  notificationLookup: '4701',
  notificationRead: '4702',
  notificationStream: '4703',
  inboxLookup: '4731',
  signatureOverviewLookup: '4960',
  reminderTooSoon: '4961',
  reminderNotAllowed: '4962',
  reminderNotWaiting: '4963',
  reminderFailed: '4964',
  commentLookup: '4901',
  commentSave: '4902',
  commentProjectClosed: '4903',
  commentMissing: '4904',
  commentNotAuthor: '4905',
  commentNotResolver: '4906',
  commentMentionUnreadable: '4907',
  commentTooManyMentions: '4908',
  commentThreadLimit: '4909',
  commentReplyLimit: '4910',
  commentReplyTarget: '4911',
  commentAlreadyResolved: '4912',
  commentAlreadyOpen: '4913',
  commentResolvedNoReply: '4914',
  commentAnchorInvalid: '4915',
  commentMentionNoTemplate: '4916',
  mentionLookup: '4940',
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
  directoryBindRefused: '6007',
  directoryNotConfigured: '6008',
  directorySyncRunning: '6009',
  templateDuplicate: '7002',
  templateReady: '7003',
  templateVersionInvalid: '7004',
  templateVersionNotGreater: '7005',
  templateOwnApproval: '7006',
  templateNotChecking: '7007',
  templateNotApproved: '7008',
  templateNotDraft: '7009',
  templateNotAuthor: '7010',
  templateVersionNotNumber: '7011',
  templateVersionForm: '7012',
  elnNotArchive: '8001',
  elnStructure: '8002',
  elnMetadata: '8003',
  elnSignature: '8004',
  elnChecksum: '8005',
  elnMissingFile: '8006',
  elnTooLarge: '8007',
  elnContent: '8008',
  elnUnknownKey: '8009',
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

const translatedMessages: Partial<Record<Exclude<Language, 'en'>, ErrorMessages>> = {};

/**
 * Gives the catalogue its messages in another language. The server gives every language as it starts; the
 * client gives only the one its interface shows, which loads with that language's strings instead of
 * with the sign-in page. Until then a message is said in English.
 */
export function provideErrorMessages(language: Exclude<Language, 'en'>, messages: ErrorMessages): void {
  translatedMessages[language] = messages;
}

export function errorMessage(code: string, language: Language, params?: Record<string, string | number>): string {
  const known = isErrorCode(code) ? code : ERR.unexpected;
  // A wait is given in seconds and said in minutes and seconds, in the reader's language.
  const seconds = params?.seconds;
  const withWait = typeof seconds === 'number' ? { ...params, wait: waitText(seconds, language) } : params;
  // A moment (ISO) is said as `at`, in the reader's language and the zone given with it.
  const moment = params?.moment;
  const at = typeof moment === 'string' ? formatZonedTime(moment, String(params?.zone ?? 'UTC'), language)?.text : undefined;
  const template = language === 'en' ? undefined : translatedMessages[language]?.[known];
  return interpolate(template ?? ERROR_CATALOGUE[known].en, at ? { ...withWait, at } : withWait);
}
