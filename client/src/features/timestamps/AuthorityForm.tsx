import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, TIMESTAMP_HASH_NAMES, timestampAuthorityCreateRequest, type TimestampAuthorityEntry } from '@eln/shared';
import { apiErrorText, fieldErrorsOf } from '../../api/errors';
import { call } from '../../api';
import { currentLanguage } from '../../i18n';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';

type Hash = (typeof TIMESTAMP_HASH_NAMES)[number];
type Draft = {
  name: string;
  url: string;
  username: string;
  password: string;
  policy: string;
  hash: Hash;
  chainPem: string;
  enabled: boolean;
};
type Probed = Awaited<ReturnType<typeof probe>>;

const probe = (draft: Draft) =>
  call(api.timestamps.probe, {
    url: draft.url,
    username: draft.username,
    password: draft.password || undefined,
    policy: draft.policy,
    hash: draft.hash,
  });

const draftOf = (entry: TimestampAuthorityEntry | null): Draft =>
  entry
    ? { ...entry, password: '' }
    : { name: '', url: '', username: '', password: '', policy: '', hash: 'SHA-256', chainPem: '', enabled: true };

/**
 * Adds or changes an authority: where to ask, its credentials and policy, the hash, and the certificate
 * chain its tokens must lead to, pasted as PEM or taken from a token the authority gives when asked.
 */
export function AuthorityForm({
  entry,
  onDone,
  onCancel,
}: {
  entry: TimestampAuthorityEntry | null;
  onDone(message: string): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [draft, setDraft] = useState<Draft>(() => draftOf(entry));
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [probed, setProbed] = useState<Probed | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const field = (name: keyof Draft) => fieldText(errors, name, language);

  const input = () => ({ ...draft, password: draft.password || undefined });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const checked = validateForm(timestampAuthorityCreateRequest, input());
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    try {
      if (entry) await call(api.timestamps.update, { ...checked.data, authorityNo: entry.authorityNo });
      else await call(api.timestamps.create, checked.data);
      onDone(t(entry ? 'admin.timestamps.saved' : 'admin.timestamps.added', { name: checked.data.name }));
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      else setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  const fetchCertificates = async () => {
    setFailure(null);
    setProbed(null);
    setBusy(true);
    try {
      setProbed(await probe(draft));
    } catch (error) {
      setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tsa-form" onSubmit={(e) => void submit(e)} noValidate data-testid="tsa-form">
      <h2 className="tsa-form-title">{entry ? t('admin.timestamps.editTitle', { name: entry.name }) : t('admin.timestamps.addTitle')}</h2>
      <div className="tsa-form-grid">
        <TextField
          label={t('admin.timestamps.name')}
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          error={field('name')}
          required
          testId="tsa-name"
        />
        <TextField
          label={t('admin.timestamps.url')}
          value={draft.url}
          onChange={(e) => set('url', e.target.value)}
          error={field('url')}
          required
          placeholder="https://"
          testId="tsa-url"
        />
        <TextField
          label={t('admin.timestamps.username')}
          value={draft.username}
          onChange={(e) => set('username', e.target.value)}
          error={field('username')}
          autoComplete="off"
          testId="tsa-username"
        />
        <TextField
          label={t('admin.timestamps.password')}
          type="password"
          value={draft.password}
          onChange={(e) => set('password', e.target.value)}
          error={field('password')}
          hint={entry?.hasPassword ? t('admin.timestamps.passwordKept') : undefined}
          autoComplete="new-password"
          testId="tsa-password"
        />
        <TextField
          label={t('admin.timestamps.policy')}
          value={draft.policy}
          onChange={(e) => set('policy', e.target.value)}
          error={field('policy')}
          hint={t('admin.timestamps.policyHint')}
          testId="tsa-policy"
        />
        <SelectField
          label={t('admin.timestamps.hash')}
          value={draft.hash}
          onChange={(e) => set('hash', e.target.value as Hash)}
          testId="tsa-hash"
        >
          {TIMESTAMP_HASH_NAMES.map((hash) => (
            <option key={hash} value={hash}>
              {hash}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label={t('admin.timestamps.chain')}
        value={draft.chainPem}
        onChange={(e) => set('chainPem', e.target.value)}
        error={field('chainPem')}
        hint={t('admin.timestamps.chainHint')}
        rows={6}
        required
        className="tsa-chain"
        testId="tsa-chain"
      />
      <div className="tsa-probe">
        <Button size="sm" onClick={() => void fetchCertificates()} disabled={busy || !draft.url} data-testid="tsa-probe">
          {t('admin.timestamps.probe')}
        </Button>
        {probed ? (
          <div className="tsa-probed" data-testid="tsa-probed">
            <p>{t('admin.timestamps.probed', { time: new Date(probed.genTime).toLocaleString(language), policy: probed.policy })}</p>
            <ul className="tsa-certs">
              {probed.certificates.map((c) => (
                <li key={c.pem}>
                  <strong>{c.subject}</strong> · {t('admin.timestamps.issuedBy', { issuer: c.issuer })} ·{' '}
                  {t('admin.timestamps.until', { date: c.notAfter.slice(0, 10) })}
                </li>
              ))}
            </ul>
            <InlineAlert tone="warning">{t('admin.timestamps.probeWarning')}</InlineAlert>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => set('chainPem', probed.certificates.map((c) => c.pem).join(''))}
              data-testid="tsa-use-probed"
            >
              {t('admin.timestamps.useProbed')}
            </Button>
          </div>
        ) : null}
      </div>
      <Checkbox
        label={t('admin.timestamps.enabled')}
        checked={draft.enabled}
        onChange={(e) => set('enabled', e.target.checked)}
        testId="tsa-enabled"
      />
      {failure ? (
        <InlineAlert tone="error" testId="tsa-form-error">
          {failure}
        </InlineAlert>
      ) : null}
      <div className="tsa-form-actions">
        <Button variant="primary" type="submit" loading={busy} data-testid="tsa-submit">
          {entry ? t('admin.timestamps.save') : t('admin.timestamps.add')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('admin.timestamps.cancel')}
        </Button>
      </div>
    </form>
  );
}
