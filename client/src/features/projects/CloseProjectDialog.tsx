import { useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type ProjectClosePreview } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { AlertIcon, LockIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import './closeProject.css';

type PendingSignature = ProjectClosePreview['pendingSignatures'][number];
type UnsavedNote = ProjectClosePreview['unsavedNotes'][number];

/** A note as the lists name it: its lab note number and title. */
function NoteName({ note }: { note: { labNoteNumber: string; title: string } }) {
  return (
    <span className="close-note">
      <span className="close-note-number">{note.labNoteNumber}</span> <span className="close-note-title">{note.title}</span>
    </span>
  );
}

/** One kind of loose end: what it is, what closing does with it, and each of them. */
function CloseWarning({ title, body, testId, children }: { title: string; body: string; testId: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="close-warning" aria-labelledby={titleId} data-testid={testId}>
      <h3 className="close-warning-title" id={titleId}>
        <AlertIcon size={16} />
        {title}
      </h3>
      <p className="close-warning-body">{body}</p>
      <ul className="close-list">{children}</ul>
    </section>
  );
}

function PendingList({ list }: { list: readonly PendingSignature[] }) {
  const { t } = useTranslation('audit');
  const { t: ts } = useTranslation('signature');
  return (
    <CloseWarning
      title={t('projectFinish.pendingTitle', { count: list.length })}
      body={t('projectFinish.pendingBody', { count: list.length })}
      testId="project-close-pending"
    >
      {list.map((entry) => (
        <li key={entry.signatureId} data-testid="project-close-pending-item" data-note={entry.labNoteNo} data-user={entry.userId}>
          <NoteName note={entry} />
          <span className="close-detail">
            {entry.name} · {ts(`meaning.${entry.type}`)}
          </span>
        </li>
      ))}
    </CloseWarning>
  );
}

function UnsavedList({ list }: { list: readonly UnsavedNote[] }) {
  const { t } = useTranslation('audit');
  return (
    <CloseWarning
      title={t('projectFinish.unsavedTitle', { count: list.length })}
      body={t('projectFinish.unsavedBody')}
      testId="project-close-unsaved"
    >
      {list.map((note) => (
        <li key={note.labNoteNo} data-testid="project-close-unsaved-item" data-note={note.labNoteNo} data-reason={note.reason}>
          <NoteName note={note} />
          <span className="close-detail">
            {note.reason === 'neverSaved'
              ? t('projectFinish.neverSaved', { writer: note.writer })
              : t('projectFinish.changedSinceSave', { writer: note.writer, version: note.version })}
          </span>
        </li>
      ))}
    </CloseWarning>
  );
}

/**
 * The leader's last look before closing: what closing makes read-only for good, and what it leaves
 * unfinished, as the server finds it (`api.projects.closePreview`): signature requests nobody answered,
 * which closing cancels, and notes whose latest content is not a saved version. Closing stays possible:
 * the warnings inform the leader, they do not stop them.
 */
export function CloseProjectDialog({
  projectNo,
  title,
  busy,
  onClose,
  onConfirm,
}: {
  projectNo: number;
  title: string;
  busy: boolean;
  onClose(): void;
  onConfirm(): void;
}) {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const language = currentLanguage();
  const preview = useApiQuery(api.projects.closePreview, { projectNo }, { keepPrevious: false });
  const cancelRef = useRef<HTMLButtonElement>(null);
  const data = preview.phase === 'ready' ? preview.data : null;
  const clear = data !== null && data.pendingSignatures.length === 0 && data.unsavedNotes.length === 0;

  return (
    <Dialog
      title={t('projectFinish.confirmTitle')}
      icon={<LockIcon size={20} />}
      tone="warning"
      role="alertdialog"
      size="md"
      onClose={busy ? undefined : onClose}
      initialFocus={cancelRef}
      testId="project-close-dialog"
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onClose} disabled={busy} data-testid="project-close-cancel">
            {tc('common.cancel')}
          </Button>
          <Button
            variant="danger"
            onClick={onConfirm}
            loading={busy}
            disabled={preview.phase === 'loading'}
            data-testid="project-close-confirm"
          >
            {data && !clear ? t('projectFinish.actionAnyway') : t('projectFinish.action')}
          </Button>
        </>
      }
    >
      <p className="modal-message" data-testid="project-close-message">
        {t('projectFinish.confirmBody', { title })}
      </p>
      {preview.phase === 'loading' ? (
        <div aria-busy="true" data-testid="project-close-loading">
          <span className="visually-hidden">{t('projectFinish.checking')}</span>
          <SkeletonBlock lines={3} />
        </div>
      ) : preview.phase === 'error' ? (
        <ErrorState message={apiErrorText(preview.error, language)} onRetry={preview.reload} testId="project-close-preview-error" />
      ) : clear ? (
        <InlineAlert tone="success" testId="project-close-clear">
          {t('projectFinish.nothingOpen')}
        </InlineAlert>
      ) : (
        <div className="close-warnings">
          {data && data.pendingSignatures.length > 0 ? <PendingList list={data.pendingSignatures} /> : null}
          {data && data.unsavedNotes.length > 0 ? <UnsavedList list={data.unsavedNotes} /> : null}
        </div>
      )}
    </Dialog>
  );
}
