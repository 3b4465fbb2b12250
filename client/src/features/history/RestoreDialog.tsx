import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, noteRestoreRequest, type NoteVersionEntry } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiMutation } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { fieldText, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextAreaField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';

/** The reason's longest form (the request's own limit, read from its schema so that the two never differ). */
const REASON_MAX = noteRestoreRequest.shape.reason.maxLength ?? 500;

/**
 * Restores a saved version as the next one, with the reason the request requires: the server puts its
 * content into the live document (everyone editing sees it) and saves it; `onRestored` gets the new version.
 */
export function RestoreDialog({
  labNoteNo,
  version,
  next,
  onClose,
  onRestored,
}: {
  labNoteNo: number;
  version: number;
  /** The number the restored content will be saved as. */
  next: number;
  onClose(): void;
  onRestored(entry: NoteVersionEntry): void;
}) {
  const { t } = useTranslation('history');
  const language = currentLanguage();
  const restore = useApiMutation(api.noteHistory.restore, { invalidates: [api.noteHistory.list, api.notes.blockList] });
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(noteRestoreRequest, { labNoteNo, version, reason });
    if (!checked.ok) {
      setErrors(checked.errors);
      reasonRef.current?.focus();
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      onRestored(await restore.mutateAsync(checked.data));
    } catch (error) {
      setFailure(apiErrorText(error, language));
    }
  };

  return (
    <Dialog title={t('restore.title', { version })} onClose={onClose} testId="history-restore-dialog" initialFocus={reasonRef} size="md">
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="modal-message">{t('restore.body', { version, next })}</p>
        {failure ? (
          <InlineAlert tone="error" testId="history-restore-error">
            {failure}
          </InlineAlert>
        ) : null}
        <TextAreaField
          ref={reasonRef}
          label={t('restore.reason')}
          required
          hint={t('restore.reasonHint')}
          value={reason}
          maxLength={REASON_MAX}
          counter={{ length: reason.trim().length, max: REASON_MAX }}
          error={fieldText(errors, 'reason', language)}
          onChange={(event) => setReason(event.target.value)}
          testId="history-restore-reason"
        />
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {t('restore.cancel')}
          </Button>
          <Button type="submit" variant="primary" loading={restore.isPending} data-testid="history-restore-submit">
            {t('restore.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
