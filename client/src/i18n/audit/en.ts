/**
 * English strings of the audit trail screens, the download page and project closing (i18next namespace
 * `audit`). Every key here must exist in ko.ts and ja.ts (the compiler checks the shape).
 */
const en = {
  page: {
    description: 'Every recorded change, in order, sealed in a SHA-256 hash chain.',
  },
  /** Action codes as `group.name`, so that `actions.${action}` finds the label. */
  actions: {
    user: {
      signIn: 'Signed in',
      signInFailed: 'Sign-in failed',
      signInRefused: 'Sign-in refused',
      signOut: 'Signed out',
      refreshReuse: 'Spent session token reused',
      passwordResetRequested: 'Password reset requested',
      passwordReset: 'Password reset',
      created: 'User created',
      updated: 'User changed',
    },
    department: {
      created: 'Department created',
      updated: 'Department changed',
    },
    project: {
      created: 'Project created',
      updated: 'Project changed',
      finished: 'Project closed',
    },
    note: {
      created: 'Note created',
      deleted: 'Note deleted',
      saved: 'Note saved',
      holdsCleared: 'Editing holds released',
    },
    file: {
      uploaded: 'File uploaded',
    },
    signature: {
      requested: 'Signatures requested',
      updated: 'Signers changed',
      signed: 'Signed',
      declined: 'Signature declined',
      failed: 'Signing attempt failed',
      removed: 'Signature removed',
    },
    audit: {
      exported: 'Audit trail exported',
    },
    system: {
      started: 'System started',
    },
  },
  actionGroups: {
    user: 'Accounts and sign-in',
    department: 'Departments',
    project: 'Projects',
    note: 'Notes',
    file: 'Files',
    signature: 'Signatures',
    audit: 'Audit trail',
    system: 'System',
  },
  targetTypes: {
    user: 'User',
    session: 'Session',
    department: 'Department',
    project: 'Project',
    note: 'Note',
    notes: 'Notes',
    file: 'File',
    audit: 'Audit trail',
  },
  filters: {
    actor: 'Actor',
    actorPlaceholder: 'Name or ID',
    action: 'Action',
    anyAction: 'All actions',
    targetType: 'Target type',
    anyTargetType: 'All types',
    targetId: 'Target ID',
    targetIdPlaceholder: 'e.g. 12',
    dateRange: 'Recorded between',
    startDate: 'From',
    endDate: 'To',
    search: 'Search',
    reset: 'Clear',
  },
  columns: {
    seq: 'Seq.',
    time: 'Time',
    actor: 'Actor',
    action: 'Action',
    target: 'Target',
    reason: 'Reason',
    clientAddress: 'Client address',
  },
  systemReasons: {
    wrongPassword: 'Wrong password',
    locked: 'Locked after repeated failures',
    deactivated: 'Account deactivated',
    refreshReuse: 'A used refresh token was presented again; the session was revoked',
    firstStart: 'First start: administrator created',
    demoData: 'Demo data',
  },
  noActor: 'Not signed in',
  emptyTitle: 'No audit records yet',
  emptyBody: 'Records appear here as soon as anyone signs in or changes something.',
  openRecord: 'Open record #{{seq}}',
  detail: {
    title: 'Audit record #{{seq}}',
    loadFailed: 'This record could not be loaded.',
    fields: {
      seq: 'Sequence',
      time: 'Time',
      utc: 'In UTC',
      actor: 'Actor',
      action: 'Action',
      target: 'Target',
      reason: 'Reason',
      clientAddress: 'Client address',
    },
    values: 'Values',
    before: 'Before',
    after: 'After',
    noValue: 'No value recorded',
    noValues: 'This action records no before or after values.',
    identical: 'Before and after are the same.',
    changed_one: '{{count}} value changed:',
    changed_other: '{{count}} values changed:',
    legendAdded: 'added',
    legendRemoved: 'removed',
    legendChanged: 'changed',
    chain: 'Hash chain',
    prevHash: 'Previous hash',
    hash: 'Hash',
    genesis: 'First record of the chain',
    copy: 'Copy {{label}}',
    copied: 'Copied',
    copyFailed: 'Could not copy. Select the text and copy it yourself.',
    showTarget: 'All records of this target',
  },
  verify: {
    action: 'Verify chain',
    intact_one: 'Chain intact: {{count}} record checked',
    intact_other: 'Chain intact: {{count}} records checked',
    intactHint: 'Every record matches its hash and names the hash of the record before it. Checked at {{time}}.',
    broken_one: 'Chain broken: {{count}} record does not match, the first #{{seq}}',
    broken_other: 'Chain broken: {{count}} records do not match, the first #{{seq}}',
    brokenHint_one:
      'A broken record no longer matches its hash, or does not name the hash of the record before it (a record was removed, inserted or re-hashed there). {{count}} record checked at {{time}}.',
    brokenHint_other:
      'A broken record no longer matches its hash, or does not name the hash of the record before it (a record was removed, inserted or re-hashed there). {{count}} records checked at {{time}}.',
    brokenList: 'Broken records',
    brokenMore_one: 'and {{count}} more, not listed',
    brokenMore_other: 'and {{count}} more, not listed',
  },
  export: {
    action: 'Export CSV',
    hint: 'Downloads every record that matches the current filters as CSV.',
    saved: 'Saved {{name}} ({{size}}).',
  },
  download: {
    description: 'Take records out of the notebook as files.',
    auditTitle: 'Audit trail',
    auditFormat: 'CSV · UTF-8',
    auditBody:
      'Every audit record with its time, actor, action, target, before and after values, reason, client address and both hashes. The export is itself recorded in the audit trail.',
    auditAction: 'Download audit CSV',
    auditFilterHint: 'To export only part of the trail, filter it first on the audit trail page and export from there.',
    openAudit: 'Open the audit trail',
    projectTitle: 'Project exports',
    projectBody: 'Exporting a project is not available yet. These formats are planned:',
    pdf: 'PDF of the notes, with signature manifestations',
    eln: '.eln archive (RO-Crate)',
    notYet: 'Not available yet',
  },
  projectFinish: {
    refusedTitle: 'The project was not closed',
    action: 'Close project',
    confirmTitle: 'Close this project?',
    confirmBody:
      'Closing “{{title}}” makes the project and all of its notes read-only for good: nobody can edit, save or sign them afterwards. This cannot be undone.',
    done: 'The project has been closed. It and all of its notes are now read-only.',
  },
};

export default en;

/** The shape every language file must have: the same keys, all strings. */
export type AuditMessages = { [K in keyof typeof en]: Shape<(typeof en)[K]> };
type Shape<T> = T extends string ? string : { [K in keyof T]: Shape<T[K]> };
