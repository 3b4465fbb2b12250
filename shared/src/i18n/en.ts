import type { NoteStatus } from '../api/notes.js';
import type { ProjectStatus } from '../api/projects.js';
import type { SignatureStatus, SignatureType } from '../api/signatures.js';
import type { ChartType } from '../blocks/model.js';
import type { NotificationEvent } from '../notifications.js';
import type { Translation } from './translation.js';

/**
 * Words the screens and the server's printouts (PDF, rendered notes) both show, in English: the labels of
 * a note's and a project's facts, signatures, and the content blocks a printout cannot draw as the editor
 * does. The client's i18next catalogues take them at their own keys (client/src/i18n), the PDF and the
 * rendered HTML read them here, so a printout says what the screen says. Placeholders are i18next's
 * {{name}} (`fillIn` fills them on the server). Every key here must exist in ko.ts and ja.ts.
 */
const en = {
  list: {
    number: 'No.',
  },
  project: {
    leader: 'Leader',
    participants: 'Participants',
    statusLabel: 'Status',
    created: 'Created',
    status: { ING: 'In progress', C: 'Completed' } satisfies Record<ProjectStatus, string>,
  },
  note: {
    labNoteNumber: 'Lab note number',
    /** The column of a list of notes. */
    labNoteNo: 'Lab note no.',
    title: 'Title',
    writer: 'Writer',
    version: 'Version',
    versionValue: 'Version {{version}}',
    notSaved: 'Not saved yet',
    /** An imported note's authors in the archive it came from (names, not accounts here). */
    importedAuthors: '{{names}} (imported)',
    importedBy: 'Imported by {{name}}',
    unknownAuthor: 'Unknown author',
    statusLabel: 'Status',
    status: { W: 'Writing', R: 'Signatures requested', T: 'Signed', F: 'Finished' } satisfies Record<NoteStatus, string>,
  },
  signature: {
    title: 'Signatures',
    none: 'No signatures have been requested for this note yet.',
    meaningLabel: 'Meaning',
    meaning: { reviewer: 'Reviewer', participant: 'Participant' } satisfies Record<SignatureType, string>,
    status: { R: 'Pending', T: 'Signed', F: 'Declined', C: 'Cancelled at close' } satisfies Record<SignatureStatus, string>,
    awaiting: 'Awaiting signature',
    printedName: 'Printed name',
    comment: 'Comment',
    broken: 'Broken',
    brokenExplained: 'The stored content of version {{version}} no longer matches what was signed. This signature cannot be trusted.',
    /** An RFC 3161 time-stamp of a signature, as the note and the PDF both say it. */
    timestamp: {
      stamped: 'Time-stamped {{time}} by {{authority}}',
      pending: 'Time-stamp pending',
      failed: 'Time-stamp failed',
    },
  },
  content: {
    untitledImage: 'Untitled image',
    attachment: 'Attached file',
    schemaField: 'Field',
    schemaValue: 'Value',
    schemaEmpty: 'This schema has no entries.',
    schemaInvalid: 'This schema block cannot be shown.',
    schemaRevision: 'Revision {{revision}}',
    dropboxChosen: 'From {{title}}, code {{code}}',
    dropboxUnchosen: 'Dropbox {{title}}: nothing chosen yet',
    chartMissing: 'The table this chart was made from is gone, or the range is no longer inside it.',
    chartTypes: {
      bar: 'Bar',
      horizontal: 'Horizontal bar',
      line: 'Line',
      doughnut: 'Doughnut',
      pie: 'Pie',
      radar: 'Radar',
      scatter: 'Scatter',
    } satisfies Record<ChartType, string>,
  },
  notification: {
    /** One sentence per event (shared NOTIFICATION_EVENTS); the bell, the home and the mails all say it. */
    events: {
      signatureRequested: '{{actor}} asked you to sign note {{note}} as {{meaning}}',
      signatureReminder: '{{actor}} reminds you that note {{note}} is waiting for your signature as {{meaning}}',
      noteSigned: '{{actor}} signed your note {{note}} as {{meaning}}',
      signatureRemoved: '{{actor}} removed the {{meaning}} signature on your note {{note}}: {{reason}}',
      projectClosed: '{{actor}} closed the project {{project}}',
      templateChecked: '{{actor}} checked in your template {{template}} for approval',
      templateApproved: '{{actor}} approved your template {{template}} as version {{version}}',
      templateReturned: '{{actor}} returned your template {{template}}: {{reason}}',
      exportFinished: 'Your export {{file}} is ready to download',
      exportFailed: 'Your export {{file}} failed',
      mentioned: '{{actor}} mentioned you in note {{note}}',
      usersDeactivated: 'Directory synchronisation deactivated {{count}} people',
      webhookDisabled: 'Your webhook to {{file}} was turned off: its deliveries failed for a day',
    } satisfies Record<NotificationEvent, string>,
    /** `signatureRemoved` when the signer declined rather than the leader removing it. */
    mentionedInTemplate: '{{actor}} mentioned you in a comment on template {{template}}',
    signatureDeclined: '{{actor}} declined to sign your note {{note}} as {{meaning}}: {{reason}}',
    /** The reason of a decline given without one. */
    noReason: 'no reason given',
    /** Who did it when the system did (directory synchronisation, an export job). */
    system: 'The system',
    /** What a notification says of a record its reader may no longer read. */
    hidden: 'A record you can no longer open',
  },
  history: {
    /** The one-line summary of what changed between two versions (`summaryLine`). */
    changes: {
      added: '{{count}} added',
      changed: '{{count}} changed',
      removed: '{{count}} removed',
      moved: '{{count}} moved',
      none: 'No changes',
      separator: ', ',
    },
  },
  mail: {
    /** The link under a notification's sentence in its mail. */
    open: 'Open it in the lab notebook:',
    /** Every mail's last lines: why it came and where to change that. */
    footer:
      'You receive this mail because of your notification choices. Change them, or gather them into one daily mail, under My account:',
    /** The daily digest's subject. */
    digestSubjectOne: 'Your lab notebook: 1 notification since the last summary',
    digestSubjectOther: 'Your lab notebook: {{count}} notifications since the last summary',
    digestIntro: 'What happened since your last summary, newest first:',
    /** A digest lists DIGEST_ITEMS at most. */
    digestMore: '… and {{count}} more in the lab notebook:',
  },
};

export default en;

export type SharedMessages = Translation<typeof en>;
