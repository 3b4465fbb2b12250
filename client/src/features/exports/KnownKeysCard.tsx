import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, signingKeyAddRequest, type KnownSigningKey, type SigningKeyAddRequest } from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { TableScroll } from '../../ui/TableScroll';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { confirm } from '../../modals/store';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { CloseIcon, KeyIcon, PlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';

const TONES = { thisServer: 'accent', addedKey: 'success', otherKey: 'info', unknownKey: 'warning' } as const satisfies Record<
  KnownSigningKey['source'],
  BadgeTone
>;

const EMPTY_DRAFT: SigningKeyAddRequest = { publicKey: '', name: '', organisation: '' };

type Notice = { kind: 'added'; keyId: string; verified: number; mismatched: number } | { kind: 'removed'; keyId: string } | null;

/**
 * The minisign keys the notebook knows (`/v1/admin/eln/key/list`): its own export key, the keys
 * administrators added by hand (with their name, organisation and who added them; removable), then the
 * others that signed imported archives, each with its id, fingerprint (when the key itself is known), when
 * it was made, added or first seen, and how many imports it signed. Adding a key checks at once the
 * imports that waited for it (ImportedArchivesCard shows the outcome).
 */
export function KnownKeysCard() {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const keys = useApiQuery(api.exports.knownKeys, {});
  const [draft, setDraft] = useState<SigningKeyAddRequest>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [failure, setFailure] = useState<string | null>(null);

  /** The key list and the imports it may have settled are read again. */
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: apiQueryKey(api.exports.knownKeys) }),
      queryClient.invalidateQueries({ queryKey: apiQueryKey(api.exports.imports) }),
    ]);

  const run = async (work: () => Promise<Notice>) => {
    setBusy(true);
    setNotice(null);
    setFailure(null);
    try {
      setNotice(await work());
      await refresh();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(toErrorMap(fields));
      else setFailure(apiErrorText(error, language));
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(signingKeyAddRequest, draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    void run(async () => {
      const answer = await call(api.exports.addKey, checked.data);
      setErrors({});
      setDraft(EMPTY_DRAFT);
      return { kind: 'added', keyId: answer.keyId, verified: answer.verified, mismatched: answer.mismatched };
    });
  };

  const remove = async (key: KnownSigningKey) => {
    if (!key.added) return;
    const sure = await confirm(t('exports.knownKeys.removeConfirm', { name: key.added.name, keyId: key.keyId }), {
      okLabel: t('exports.knownKeys.removeShort'),
    });
    if (!sure) return;
    const keyNo = key.added.keyNo;
    void run(async () => {
      await call(api.exports.removeKey, { keyNo });
      return { kind: 'removed', keyId: key.keyId };
    });
  };

  const renderBody = () => {
    if (keys.phase === 'error' && !keys.data)
      return <ErrorState message={apiErrorText(keys.error, language)} onRetry={keys.reload} testId="known-keys-error" />;
    if (!keys.data) return <SkeletonBlock lines={2} />;
    return (
      <TableScroll label={t('exports.knownKeys.title')}>
        <table className="data-table data-table-compact known-keys-table" data-testid="known-keys-table">
          <thead>
            <tr>
              <th scope="col">{t('exports.knownKeys.keyId')}</th>
              <th scope="col">{t('exports.knownKeys.source')}</th>
              <th scope="col">{t('exports.knownKeys.fingerprint')}</th>
              <th scope="col">{t('exports.knownKeys.addedAt')}</th>
              <th scope="col" className="col-center">
                {t('exports.knownKeys.imports')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('exports.knownKeys.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.list.map((key) => (
              <tr key={key.keyId} data-testid="known-key" data-source={key.source} data-key-id={key.keyId}>
                <td>
                  <code>{key.keyId}</code>
                </td>
                <td>
                  {key.added ? (
                    <div className="known-key-owner">
                      <strong data-testid="known-key-name">{key.added.name}</strong>
                      {key.added.organisation ? <span>{key.added.organisation}</span> : null}
                      <span className="known-key-by">{t('exports.knownKeys.addedBy', { name: key.added.addedBy })}</span>
                    </div>
                  ) : (
                    <Badge tone={TONES[key.source]}>{t(`exports.knownKeys.sources.${key.source}`)}</Badge>
                  )}
                </td>
                <td>
                  {key.fingerprint ? (
                    <code className="known-key-fingerprint" title={key.fingerprint}>
                      {key.fingerprint
                        .match(/.{1,4}/g)
                        ?.slice(0, 8)
                        .join(' ')}
                      …
                    </code>
                  ) : (
                    <span className="known-key-none">{t('exports.knownKeys.noFingerprint')}</span>
                  )}
                </td>
                <td>{formatDateTime(key.addedAt, language)}</td>
                <td className="col-center">{key.imports}</td>
                <td>
                  {key.abilities.remove ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<CloseIcon size={14} />}
                      disabled={busy}
                      onClick={() => void remove(key)}
                      aria-label={t('exports.knownKeys.remove', { name: key.added?.name ?? key.keyId })}
                      data-testid="known-key-remove"
                    >
                      {t('exports.knownKeys.removeShort')}
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    );
  };

  return (
    <section className="card export-card export-card-wide" aria-labelledby="known-keys-title" data-testid="known-keys">
      <header className="card-header">
        <h2 className="card-title" id="known-keys-title">
          <KeyIcon size={16} />
          {t('exports.knownKeys.title')}
        </h2>
      </header>
      <p className="download-hint">{t('exports.knownKeys.hint')}</p>
      {renderBody()}
      <div aria-live="polite">
        {notice ? (
          <InlineAlert tone="success" testId="known-keys-done">
            {notice.kind === 'added'
              ? t('exports.knownKeys.added', { keyId: notice.keyId, verified: notice.verified, mismatched: notice.mismatched })
              : t('exports.knownKeys.removed', { keyId: notice.keyId })}
          </InlineAlert>
        ) : null}
      </div>
      {failure ? (
        <InlineAlert tone="error" testId="known-keys-refused">
          {failure}
        </InlineAlert>
      ) : null}
      {keys.data?.abilities.add ? (
        <form className="known-key-form" onSubmit={add} noValidate data-testid="known-key-form" aria-labelledby="known-key-form-title">
          <h3 className="known-key-form-title" id="known-key-form-title">
            {t('exports.knownKeys.addTitle')}
          </h3>
          <TextAreaField
            label={t('exports.knownKeys.publicKey')}
            value={draft.publicKey}
            onChange={(event) => setDraft({ ...draft, publicKey: event.target.value })}
            error={fieldText(errors, 'publicKey', language)}
            hint={t('exports.knownKeys.publicKeyHint')}
            placeholder={'untrusted comment: minisign public key 5E1D…\nRWQ…'}
            spellCheck={false}
            rows={2}
            required
            className="known-key-public"
            testId="known-key-public"
          />
          <TextField
            label={t('exports.knownKeys.name')}
            value={draft.name}
            onChange={(event) => setDraft({ ...draft, name: event.target.value })}
            error={fieldText(errors, 'name', language)}
            autoComplete="off"
            required
            testId="known-key-name-field"
          />
          <TextField
            label={t('exports.knownKeys.organisation')}
            value={draft.organisation ?? ''}
            onChange={(event) => setDraft({ ...draft, organisation: event.target.value })}
            error={fieldText(errors, 'organisation', language)}
            autoComplete="organization"
            testId="known-key-organisation"
          />
          <div className="download-actions">
            <Button variant="secondary" type="submit" icon={<PlusIcon size={15} />} loading={busy} data-testid="known-key-add">
              {t('exports.knownKeys.add')}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
