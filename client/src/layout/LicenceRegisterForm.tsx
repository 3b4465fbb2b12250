import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, LICENCE_KEY_MAX_LENGTH, licenceRegisterRequest, type LicenceInfoAnswer } from '@eln/shared';
import { call } from '../api';
import { apiErrorText, fieldErrorsOf, isApiError } from '../api/errors';
import { currentLanguage } from '../i18n';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../lib/forms';
import { Button } from '../ui/Button';
import { TextAreaField } from '../ui/Field';
import { InlineAlert } from '../ui/InlineAlert';
import { formatLicenceDate } from './licence';

type Outcome = { kind: 'none' } | { kind: 'refused'; message: string } | { kind: 'registered'; expiresAt: string };

/** Paste (or load from a file) a licence key; the server checks it and answers the new licence. */
export function LicenceRegisterForm({ onRegistered }: { onRegistered: (answer: LicenceInfoAnswer) => void }) {
  const { t } = useTranslation();
  const [licenceKey, setLicenceKey] = useState('');
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const language = currentLanguage();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validateForm(licenceRegisterRequest, { licenceKey });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setBusy(true);
    setOutcome({ kind: 'none' });
    try {
      const answer = await call(api.licence.register, checked.data);
      onRegistered(answer);
      setLicenceKey('');
      setOutcome({ kind: 'registered', expiresAt: answer.licence?.expiresAt ?? '' });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      // The server's message carries the version or date the refusal is about, in the reader's language.
      else setOutcome({ kind: 'refused', message: isApiError(error) && error.message ? error.message : apiErrorText(error, language) });
    } finally {
      setBusy(false);
    }
  }

  async function loadFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) setLicenceKey((await file.slice(0, LICENCE_KEY_MAX_LENGTH + 1).text()).trim());
  }

  return (
    <form className="licence-register" onSubmit={(event) => void submit(event)} noValidate data-testid="licence-register">
      <h3 className="licence-register-heading">{t('licence.register.heading')}</h3>
      <p className="licence-register-hint">{t('licence.register.hint')}</p>
      <TextAreaField
        label={t('licence.register.key')}
        value={licenceKey}
        onChange={(e) => setLicenceKey(e.target.value)}
        error={fieldText(errors, 'licenceKey', language)}
        rows={3}
        className="licence-key-field"
        spellCheck={false}
        testId="licence-key"
      />
      {outcome.kind === 'refused' ? (
        <InlineAlert tone="error" testId="licence-register-error">
          {outcome.message}
        </InlineAlert>
      ) : null}
      {outcome.kind === 'registered' ? (
        <InlineAlert tone="success" testId="licence-register-done">
          {t('licence.register.done', { date: formatLicenceDate(outcome.expiresAt) })}
        </InlineAlert>
      ) : null}
      <div className="licence-register-actions">
        <input
          ref={fileInput}
          type="file"
          accept=".lic,.txt,text/plain"
          hidden
          onChange={(event) => void loadFile(event)}
          data-testid="licence-file"
        />
        <Button variant="secondary" onClick={() => fileInput.current?.click()}>
          {t('licence.register.file')}
        </Button>
        <Button variant="primary" type="submit" disabled={busy} data-testid="licence-register-submit">
          {busy ? t('licence.register.registering') : t('licence.register.submit')}
        </Button>
      </div>
    </form>
  );
}
