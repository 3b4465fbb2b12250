import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, signatureRemoveRequest, type SignatureEntry } from '@eln/shared';
import { apiErrorText, fieldErrorsOf, isApiError } from '../../api';
import { useApiMutation } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextAreaField } from '../../ui/Field';
import { TrashIcon } from '../editor/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { printedName, SignatureLines } from './SignatureManifest';
import { SIGNATURES_SHOWN_ON } from './signerChoices';

const REASON_MAX = 500;

/** The leader removes a signature (answered or pending), giving a reason that the audit trail keeps. */
export function RemoveDialog({
  labNoteNo,
  entry,
  onClose,
  onRemoved,
}: {
  labNoteNo: number;
  entry: SignatureEntry;
  onClose(): void;
  onRemoved(): void;
}) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = useApiMutation(api.signatures.remove, { invalidates: SIGNATURES_SHOWN_ON });
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const checked = validateForm(signatureRemoveRequest, { labNoteNo, signatureId: entry.signatureId, reason });
    if (!checked.ok) {
      setErrors(checked.errors);
      reasonRef.current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await remove.mutateAsync(checked.data);
      onRemoved();
    } catch (error) {
      if (isApiError(error) && error.httpStatus === 401) {
        onClose();
        return;
      }
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      else setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('remove.title')}
      icon={<TrashIcon size={20} />}
      tone="error"
      onClose={busy ? undefined : onClose}
      size="md"
      testId="signature-remove-dialog"
      initialFocus={reasonRef}
    >
      <form className="form sig-remove-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="modal-message">
          {t('remove.intro', { name: printedName(entry), meaning: t(`meaning.${entry.type}`), status: t(`status.${entry.status}`) })}
        </p>
        <div className="sig-remove-subject">
          <SignatureLines list={[entry]} entryTestId="signature-remove-subject" />
        </div>
        {failure ? (
          <InlineAlert tone="error" testId="signature-remove-error">
            {failure}
          </InlineAlert>
        ) : null}
        <TextAreaField
          ref={reasonRef}
          label={t('remove.reason')}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setErrors({});
          }}
          maxLength={REASON_MAX + 20}
          rows={3}
          required
          counter={{ length: reason.trim().length, max: REASON_MAX }}
          error={fieldText(errors, 'reason', language)}
          hint={t('remove.reasonHint')}
          testId="signature-remove-reason"
        />
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('remove.cancel')}
          </Button>
          <Button type="submit" variant="danger" icon={<TrashIcon size={16} />} loading={busy} data-testid="signature-remove-submit">
            {t('remove.submit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
