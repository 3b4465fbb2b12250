import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { findPasswordRequest } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, focusFirstInvalid, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { MailIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';

/** Find password: the server always answers success, so the answer never tells whether an account exists. */
export function FindPasswordDialog({ initialUserId, onClose }: { initialUserId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [userId, setUserId] = useState(initialUserId);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const checked = validateForm(findPasswordRequest, { userId });
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(form.current);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await call('/v1/user/find/password', checked.data);
      setSent(true);
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
      title={t('findPassword.title')}
      icon={<MailIcon size={20} />}
      onClose={onClose}
      closeOnBackdrop
      testId="find-password-dialog"
      footer={
        sent ? (
          <Button variant="primary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button variant="primary" type="submit" form="find-password-form" loading={busy} data-testid="find-password-submit">
              {t('findPassword.submit')}
            </Button>
          </>
        )
      }
    >
      {sent ? (
        <InlineAlert tone="success" testId="find-password-sent">
          {t('findPassword.sent')}
        </InlineAlert>
      ) : (
        <form id="find-password-form" ref={form} className="form" onSubmit={onSubmit} noValidate>
          <p className="dialog-intro">{t('findPassword.intro')}</p>
          {failure ? <InlineAlert tone="error">{failure}</InlineAlert> : null}
          <TextField
            label={t('findPassword.email')}
            name="userId"
            type="email"
            autoComplete="username"
            inputMode="email"
            placeholder={t('signin.userIdPlaceholder')}
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
            error={fieldText(errors, 'userId', language)}
            testId="find-password-email"
          />
        </form>
      )}
    </Dialog>
  );
}
