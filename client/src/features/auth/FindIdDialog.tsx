import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { findIdRequest, type FindIdAnswer } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, focusFirstInvalid, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { UserIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';

/** Find ID: name and phone → the account's email, partly hidden. */
export function FindIdDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [found, setFound] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const checked = validateForm(findIdRequest, { name, phone });
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await call<FindIdAnswer>('/v1/user/find/id', checked.data);
      setFound(answer.maskedUserId);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      else setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('findId.title')}
      icon={<UserIcon size={20} />}
      onClose={onClose}
      closeOnBackdrop
      testId="find-id-dialog"
      footer={
        found ? (
          <Button variant="primary" onClick={onClose}>
            {t('findId.useId')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button variant="primary" type="submit" form="find-id-form" loading={busy} data-testid="find-id-submit">
              {t('findId.submit')}
            </Button>
          </>
        )
      }
    >
      {found ? (
        <div className="result-box" role="status" data-testid="find-id-result">
          <p className="result-label">{t('findId.result')}</p>
          <p className="result-value">{found}</p>
          <p className="result-hint">{t('findId.resultHint')}</p>
        </div>
      ) : (
        <form id="find-id-form" ref={form} className="form" onSubmit={onSubmit} noValidate>
          <p className="dialog-intro">{t('findId.intro')}</p>
          {failure ? (
            <InlineAlert tone="error" testId="find-id-error">
              {failure}
            </InlineAlert>
          ) : null}
          <TextField
            label={t('findId.name')}
            name="name"
            autoComplete="name"
            placeholder={t('findId.namePlaceholder')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldText(errors, 'name', language)}
            testId="find-id-name"
          />
          <TextField
            label={t('findId.phone')}
            name="phone"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            placeholder={t('findId.phonePlaceholder')}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
            error={fieldText(errors, 'phone', language)}
            testId="find-id-phone"
          />
        </form>
      )}
    </Dialog>
  );
}
