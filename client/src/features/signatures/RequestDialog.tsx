import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ERR, SIGNATURE_TYPES, type NoteSummary, type SignatureType } from '@eln/shared';
import { apiErrorText, isApiError } from '../../api';
import { useApiMutation, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { initials } from '../../lib/format';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { RequestIcon } from './icons';
import { printedName } from './SignatureManifest';
import { chosenSigners, defaultMeaning, notParticipantsOf, requestCallFor, signerChoices, type SignerChoice } from './signerChoices';

/**
 * Choosing signers among the project's members, its leader and participants (`/v1/project/check`), each with a meaning. A note
 * without live signatures gets `/signature/create`; otherwise `/signature/update` replaces the pending
 * signers, and answered signatures are shown as they are, not changeable. 2019 is shown in the dialog,
 * naming anyone who is not a participant.
 */
export function RequestDialog({ note, me, onClose, onSaved }: { note: NoteSummary; me: string; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  // The note's answer names its project, whose members (its leader and participants) are the possible signers.
  const project = useApiQuery(api.projects.detail, { projectNo: note.projectNo });
  // The rows start from the note and its project as first read (or read again after a failure); a later
  // read of the project does not undo the choices made meanwhile.
  const [started, setStarted] = useState<SignerChoice[] | null>(null);
  if (started === null && project.phase === 'ready') {
    setStarted(signerChoices(project.data.members, note.signatureList, note.reviewersExcluded));
  }
  const rows = started ?? [];
  const setRows = (change: (previous: SignerChoice[]) => SignerChoice[]) => setStarted((previous) => change(previous ?? []));
  const load = started !== null ? { phase: 'ready' as const } : project.phase === 'error' ? project : { phase: 'loading' as const };
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<{ text: string; names: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const updating = note.signatureList.length > 0;
  // The project's note list shows each note's status and signers.
  const send = useApiMutation(requestCallFor(note.signatureList), { invalidates: [api.projects.editor] });

  const chosen = chosenSigners(rows);
  const answered = rows.filter((r) => r.answered !== null);

  const toggle = (userId: string, on: boolean) => {
    setFailure(null);
    setRows((previous) =>
      previous.map((r) =>
        r.userId === userId
          ? {
              ...r,
              chosen: on,
              type: on && !r.chosen && !note.signatureList.some((s) => s.userId === userId) ? defaultMeaning(previous, r) : r.type,
            }
          : r,
      ),
    );
  };
  const setType = (userId: string, type: SignatureType) => {
    setFailure(null);
    setRows((previous) => previous.map((r) => (r.userId === userId ? { ...r, type } : r)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (busy || chosen.length === 0) return;
    setBusy(true);
    setFailure(null);
    try {
      await send.mutateAsync({ labNoteNo: note.no, signers: chosen });
      onSaved();
    } catch (error) {
      if (isApiError(error) && error.httpStatus === 401) {
        onClose();
        return;
      }
      const ids = isApiError(error) && error.status === ERR.signerModify ? notParticipantsOf(error.data) : [];
      const names = ids.map((id) => rows.find((r) => r.userId === id)?.name ?? id);
      setFailure({ text: apiErrorText(error, language), names });
    } finally {
      setBusy(false);
    }
  };

  const name = (row: SignerChoice) => (row.answered ? printedName(row.answered) : row.name);

  return (
    <Dialog
      title={updating ? t('request.changeTitle') : t('request.title')}
      icon={<RequestIcon size={20} />}
      onClose={busy ? undefined : onClose}
      size="lg"
      testId="signature-request-dialog"
    >
      <form className="form sig-request-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="dialog-intro sig-request-intro">
          {t('request.intro', { title: note.title })} <span className="sig-request-hint">{t('request.reviewerHint')}</span>
        </p>

        {failure ? (
          <InlineAlert tone="error" testId="signature-request-error">
            <strong className="sig-error-title">{failure.text}</strong>
            {failure.names.length > 0 ? (
              <span className="sig-error-detail"> {t('request.notParticipants', { names: failure.names.join(', ') })}</span>
            ) : null}
          </InlineAlert>
        ) : null}

        {load.phase === 'loading' ? (
          <div className="sig-request-loading" aria-busy="true" aria-label={t('request.loading')}>
            <SkeletonBlock lines={4} />
          </div>
        ) : load.phase === 'error' ? (
          <ErrorState
            message={`${t('request.loadFailed')} ${apiErrorText(load.error, language)}`}
            onRetry={project.reload}
            testId="signature-request-load-error"
          />
        ) : rows.length === 0 ? (
          <p className="cell-muted">{t('request.noParticipants')}</p>
        ) : (
          <div className="sig-request-table" role="group" aria-label={t('request.signer')}>
            <div className="sig-request-head" aria-hidden="true">
              <span>{t('request.signer')}</span>
              <span>{t('request.meaning')}</span>
            </div>
            <ul className="sig-request-list">
              {rows.map((row) => {
                const fixed = row.answered !== null;
                return (
                  <li
                    key={row.userId}
                    className={`sig-request-row${row.chosen || fixed ? ' is-chosen' : ''}${fixed ? ' is-fixed' : ''}${row.notParticipant ? ' is-outsider' : ''}`}
                    data-testid={`signature-request-row-${row.userId}`}
                  >
                    <Checkbox
                      className="sig-request-who"
                      checked={row.chosen || fixed}
                      disabled={fixed || busy}
                      onChange={(event) => toggle(row.userId, event.target.checked)}
                      testId={`signature-request-signer-${row.userId}`}
                      label={
                        <span className="person">
                          <span className="avatar avatar-sm" aria-hidden="true">
                            {initials(row.name)}
                          </span>
                          <span className="person-text">
                            <span className="person-name">
                              {name(row)}
                              {row.userId === me ? <span className="sig-you"> ({t('request.you')})</span> : null}
                            </span>
                            <span className="person-sub">
                              {row.userId}
                              {row.departmentName ? ` · ${row.departmentName}` : ''}
                            </span>
                            {row.reviewerExcluded && !fixed ? (
                              <span className="person-sub sig-request-wrote" data-testid={`signature-request-wrote-${row.userId}`}>
                                {t('request.wroteInNote')}
                              </span>
                            ) : null}
                          </span>
                        </span>
                      }
                    />
                    <div className="sig-request-meaning">
                      {fixed && row.answered ? (
                        <span className="sig-request-fixed" data-testid={`signature-request-fixed-${row.userId}`}>
                          <span className={`badge ${row.answered.type === 'reviewer' ? 'badge-accent' : 'badge-neutral'}`}>
                            {t(`meaning.${row.answered.type}`)}
                          </span>
                          <span className={`badge ${row.answered.status === 'T' ? 'badge-success' : 'badge-danger'}`}>
                            {t(`status.${row.answered.status}`)}
                          </span>
                        </span>
                      ) : (
                        <div className="select-wrap sig-request-select">
                          <select
                            className="input select"
                            value={row.type}
                            disabled={!row.chosen || busy}
                            onChange={(event) => setType(row.userId, event.target.value === 'reviewer' ? 'reviewer' : 'participant')}
                            aria-label={t('request.meaningFor', { name: row.name })}
                            data-testid={`signature-request-type-${row.userId}`}
                          >
                            {SIGNATURE_TYPES.map((type) => (
                              <option key={type} value={type} disabled={type === 'reviewer' && row.reviewerExcluded}>
                                {t(`meaning.${type}`)}
                              </option>
                            ))}
                          </select>
                        </div>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
        )}

        {answered.length > 0 ? <p className="sig-request-note">{t('request.answeredNote')}</p> : null}
        {tried && chosen.length === 0 && load.phase === 'ready' ? (
          <p className="field-error" role="alert" data-testid="signature-request-none">
            {t('request.noneChosen')}
          </p>
        ) : null}

        <div className="modal-footer modal-footer-inline sig-footer">
          <span className="sig-request-count" aria-live="polite">
            {t('request.chosen', { count: chosen.length })}
          </span>
          <span className="sig-footer-spacer" />
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('dialog.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            icon={<RequestIcon size={16} />}
            loading={busy}
            disabled={load.phase !== 'ready'}
            data-testid="signature-request-submit"
          >
            {updating ? t('request.update') : t('request.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
