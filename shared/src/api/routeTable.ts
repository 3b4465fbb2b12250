import type { CallGroup, CallSpec } from './call.js';
import { accountCalls } from './account.js';
import { auditCalls } from './audit.js';
import { commentCalls } from './comments.js';
import { dashboardCalls } from './dashboard.js';
import { departmentCalls } from './departments.js';
import { dropboxCalls } from './dropboxes.js';
import { exportCalls } from './exports.js';
import { fileCalls } from './files.js';
import { inboxCalls } from './inbox.js';
import { authCalls } from './identity.js';
import { licenceCalls } from './licence.js';
import { mailCalls } from './mail.js';
import { mentionCalls } from './mentions.js';
import { noteHistoryCalls } from './noteHistory.js';
import { noteCalls } from './notes.js';
import { notificationCalls } from './notifications.js';
import { projectCalls } from './projects.js';
import { schemaCalls } from './schemas.js';
import { searchCalls } from './search.js';
import { signatureCalls } from './signatures.js';
import { signatureOverviewCalls } from './signatureOverview.js';
import { ssoCalls } from './sso.js';
import { systemCalls } from './system.js';
import { templateCalls } from './templates.js';
import { timestampCalls } from './timestamps.js';
import { tokenCalls } from './tokens.js';
import { userCalls } from './users.js';
import { webhookCalls } from './webhooks.js';

/**
 * The route table: every call of the API, grouped by the feature that answers it (the server folder of
 * the same name). Client, server, tests and the API document address calls through it.
 */
export const api = {
  projects: projectCalls,
  notes: noteCalls,
  noteHistory: noteHistoryCalls,
  mentions: mentionCalls,
  signatures: signatureCalls,
  signatureOverview: signatureOverviewCalls,
  comments: commentCalls,
  templates: templateCalls,
  schemas: schemaCalls,
  dropboxes: dropboxCalls,
  files: fileCalls,
  exports: exportCalls,
  audit: auditCalls,
  departments: departmentCalls,
  auth: authCalls,
  sso: ssoCalls,
  users: userCalls,
  licence: licenceCalls,
  system: systemCalls,
  dashboard: dashboardCalls,
  inbox: inboxCalls,
  search: searchCalls,
  timestamps: timestampCalls,
  account: accountCalls,
  tokens: tokenCalls,
  mail: mailCalls,
  notifications: notificationCalls,
  webhooks: webhookCalls,
} as const satisfies Record<string, CallGroup>;

/** Every call of the route table, in table order. */
export function allCalls(): CallSpec[] {
  return Object.values(api).flatMap((group: CallGroup) => Object.values(group));
}
