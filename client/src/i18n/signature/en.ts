import shared from '@eln/shared/i18n/en';

/**
 * English strings of electronic signatures: the signatures area of a note, the request, signing and
 * removal dialogs, and the manifestation in the project's note list (i18next namespace `signature`).
 * Every key here must exist in ko.ts and ja.ts (the compiler checks the shape).
 */
const en = {
  meaning: shared.signature.meaning,
  status: shared.signature.status,
  area: {
    title: shared.signature.title,
    none: shared.signature.none,
    request: 'Request signatures',
    changeSigners: 'Change signers',
    sign: 'Sign',
    remove: 'Remove',
    removeLabel: 'Remove the signature of {{name}}',
    pendingForMe: 'Your signature is requested as {{meaning}}. Check the saved version, then sign or decline.',
    done: 'You signed this note as {{meaning}} on {{when}} (version {{version}}).',
    declined: 'You declined to sign this note on {{when}}.',
    noReviewer:
      'Everyone asked has signed, but no reviewer has. A reviewer’s signature is still needed: the project can be closed only after a reviewer has signed a note.',
    lockedSigned: '“{{title}}” has been signed, so it is locked. The editor is read-only now.',
    lockedFinished: 'The project of “{{title}}” was closed. The note is read-only now.',
  },
  entry: {
    version: 'v{{version}}',
    versionTitle: 'Signed version {{version}}',
    broken: shared.signature.broken,
    brokenTitle: shared.signature.brokenExplained,
    zoneTitle: 'Time zone {{zone}}',
    account: 'Account: {{name}} · {{userId}}',
    awaiting: shared.signature.awaiting,
    comment: shared.signature.comment,
  },
  request: {
    title: 'Request signatures',
    changeTitle: 'Change signers',
    intro: 'Choose who signs “{{title}}” and what each signature means. Only the project’s leader and participants can sign.',
    reviewerHint: 'A reviewer’s signature is what allows the leader to close the project.',
    wroteInNote: 'Wrote in this note, so signs only as participant',
    loading: 'Loading the project’s participants…',
    loadFailed: 'The project’s participants could not be loaded.',
    noParticipants: 'This project has no participants to ask.',
    signer: 'Signer',
    meaning: shared.signature.meaningLabel,
    meaningFor: 'Meaning of the signature of {{name}}',
    you: 'you',
    answeredNote: 'Answered signatures stay as they are. Only the project leader can remove them.',
    chosen_one: '{{count}} signer chosen',
    chosen_other: '{{count}} signers chosen',
    noneChosen: 'Choose at least one signer.',
    submit: 'Send request',
    update: 'Save signers',
    notParticipants: 'Not participants of the project: {{names}}',
    done: 'The signature request was saved.',
  },
  dialog: {
    title: 'Sign the lab note',
    signing: 'What you are signing',
    note: 'Note',
    labNoteNumber: 'Lab note no.',
    version: shared.note.version,
    versionValue: shared.note.versionValue,
    savedBy: 'saved {{when}} by {{name}}',
    savedAt: 'saved {{when}}',
    noVersion: 'No version of this note is saved yet, so there is nothing to sign. You can still decline.',
    unsaved: 'This note has changes that are not saved as a version. Signing is possible only once a version with these changes is saved.',
    meaning: 'Meaning of your signature',
    meaningHelp: {
      reviewer: 'As reviewer you confirm that you have reviewed this version of the note.',
      participant: 'As participant you confirm this version of the note as a record of the work you took part in.',
    },
    name: shared.signature.printedName,
    nameHint: 'Shown with your signature wherever the note is shown or exported.',
    password: 'Password',
    passwordHint: 'Re-enter your password. It is asked at every signature.',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    wrongPassword: 'The password is incorrect.',
    locked: 'Too many wrong passwords. You can try again in {{seconds}} seconds.',
    description: 'Comment (optional)',
    descriptionHint: 'For example what you checked, or why you decline.',
    statement:
      'Signing applies your electronic signature to version {{version}}. It is recorded with the time, your time zone ({{zone}}) and its meaning, and it locks the note.',
    sign: 'Sign',
    decline: 'Decline',
    cancel: 'Cancel',
    refreshed: 'The note changed meanwhile; what you are signing is shown again above.',
  },
  remove: {
    title: 'Remove signature',
    intro:
      'Remove the signature of {{name}} ({{meaning}}, {{status}})? The removal and your reason are kept in the audit trail. The note unlocks when no signature is left.',
    reason: 'Reason',
    reasonHint: 'Why this signature is removed, for example “signed the wrong version”.',
    submit: 'Remove signature',
    cancel: 'Cancel',
  },
  list: {
    column: 'Signatures',
    none: 'None',
  },
};

export default en;

/** The shape every language file must have: the same keys, all strings. */
export type SignatureMessages = { [K in keyof typeof en]: Shape<(typeof en)[K]> };
type Shape<T> = T extends string ? string : { [K in keyof T]: Shape<T[K]> };
