import shared from '@eln/shared/i18n/en';

/**
 * English strings of the home's sections below the counts (i18next namespace `home`): what waits for the
 * reader, their unfinished notes, what they opened last and what happened in their projects. Every key
 * here must exist in ko.ts and ja.ts (the compiler checks the shape).
 */
const en = {
  meaning: shared.signature.meaning,
  noteStatus: shared.note.status,
  failed: 'This section could not be loaded.',
  more: 'Show more',
  waiting: {
    title: 'Waiting for me',
    signatures: 'Signatures',
    templates: 'Templates',
    empty: 'Nothing is waiting for you.',
    emptyHint: 'Signature requests, templates to approve and notes returned to you appear here.',
    request: '{{name}} asked you to sign as {{meaning}}',
    declined: '{{name}} declined to sign: returned to you',
    approve: 'Checked in by {{name}} for approval (revision {{revision}})',
    returned: 'Returned by {{name}}',
    returnedToYou: 'Returned to you',
    sign: 'Sign',
    review: 'Review',
    revise: 'Revise',
  },
  notes: {
    title: 'My notes',
    empty: 'All your notes are saved, with no signatures outstanding.',
    emptyHint: 'Notes you write that are unsaved or waiting for signatures appear here.',
    neverSaved: 'Never saved',
    changedSinceSave: 'Unsaved changes since v{{version}}',
    pending_one: '{{count}} signature pending',
    pending_other: '{{count}} signatures pending',
  },
  recent: {
    title: 'Recently opened',
    empty: 'Nothing opened yet.',
    emptyHint: 'The notes, templates and schemas you open appear here.',
    kinds: { note: 'Note', template: 'Template', schema: 'Schema' },
  },
  activity: {
    title: 'In my projects',
    empty: 'Nothing has happened in your projects yet.',
    emptyHint: 'New notes, saved versions, signatures, closed projects and approved templates appear here.',
    system: 'The system',
    events: {
      noteCreated: '{{actor}} created {{note}}',
      versionSaved: '{{actor}} saved version {{version}} of {{note}}',
      signatureGiven: '{{actor}} signed {{note}} as {{meaning}}',
      signatureRemoved: '{{actor}} removed the signature of {{signer}} from {{note}}',
      projectClosed: '{{actor}} closed the project {{project}}',
      templateApproved: '{{actor}} approved the template {{template}} as version {{version}}',
    },
    reason: 'Reason: {{reason}}',
  },
  time: {
    justNow: 'just now',
  },
};

export default en;
export type HomeMessages = typeof en;
