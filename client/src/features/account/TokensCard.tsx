import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  errorMessage,
  fieldMessage,
  TOKEN_LIMITS,
  TOKEN_SCOPES,
  type TokenCreateAnswer,
  type TokenRecord,
  type TokenScope,
} from '@eln/shared';
import { apiErrorText, call, fieldErrorsOf } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { confirm } from '../../modals/store';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { KeyIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { CopyButton } from '../audit/AuditBits';
import { AccountCard } from './SettingsSection';
import { TokenCells, TokenHeaderCells } from './TokenCells';
import { expiryInputBounds, expiryOfDate } from './tokenForm';
import { TableScroll } from '../../ui/TableScroll';

type Notice = { kind: 'revoked'; name: string } | { kind: 'failed'; text: string; fields: Record<string, string> } | null;

/**
 * My account's personal access tokens (server/src/tokens): the form that creates one (name, expiry within a
 * year, scopes), the new token shown this once with a copy button, and the list of the person's tokens with
 * their last use, each revocable. Whether the person may create one is the server's verdict (`abilities`).
 */
export function TokensCard() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const tokens = useApiQuery(api.tokens.list, {}, { refetchOnMount: 'always' });
  const bounds = expiryInputBounds(new Date());
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState(bounds.initial);
  const [scopes, setScopes] = useState<TokenScope[]>(['read']);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<TokenCreateAnswer | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const data = tokens.data;

  const failed = (error: unknown) => {
    const fields = Object.fromEntries(fieldErrorsOf(error).map((field) => [field.field, fieldMessage(field, language)]));
    setNotice({ kind: 'failed', text: apiErrorText(error, language), fields });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setNotice(null);
    try {
      const answer = await call(api.tokens.create, { name, expiresAt: expiryOfDate(expiry), scopes });
      setCreated(answer);
      setName('');
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
      tokens.reload();
    }
  };

  const revoke = async (token: TokenRecord) => {
    if (!(await confirm(t('account.tokens.confirmRevoke', { name: token.name }), { okLabel: t('account.tokens.revoke') }))) return;
    setNotice(null);
    try {
      await call(api.tokens.revoke, { tokenId: token.tokenId });
      setNotice({ kind: 'revoked', name: token.name });
    } catch (error) {
      failed(error);
    } finally {
      tokens.reload();
    }
  };

  const fieldError = (field: string) => (notice?.kind === 'failed' ? notice.fields[field] : undefined);
  const toggle = (scope: TokenScope, on: boolean) =>
    setScopes(TOKEN_SCOPES.filter((each) => (each === scope ? on : scopes.includes(each))));

  return (
    <AccountCard
      testId="account-tokens"
      title={t('account.tokens.title')}
      icon={<KeyIcon size={17} />}
      description={t('account.tokens.description')}
    >
      {created ? (
        <div className="account-token-created" data-testid="account-token-created">
          <InlineAlert tone="success">
            <strong>{t('account.tokens.createdTitle')}</strong> {t('account.tokens.createdBody')}
          </InlineAlert>
          <div className="account-token-secret">
            <code className="cell-mono" aria-label={t('account.tokens.tokenLabel')} data-testid="account-token-secret">
              {created.token}
            </code>
            <CopyButton text={created.token} label={t('account.tokens.copy')} testId="account-token-copy" />
          </div>
          <Button variant="secondary" size="sm" onClick={() => setCreated(null)} data-testid="account-token-done">
            {t('account.tokens.done')}
          </Button>
        </div>
      ) : null}
      {data && !data.abilities.create && data.createRefusal ? (
        <InlineAlert tone="info" testId="account-tokens-refusal">
          {errorMessage(data.createRefusal, language)}
        </InlineAlert>
      ) : null}
      {data?.abilities.create ? (
        <form className="account-form" onSubmit={(event) => void submit(event)} noValidate data-testid="account-tokens-form">
          <div className="form-grid form-grid-2">
            <TextField
              label={t('account.tokens.name')}
              value={name}
              placeholder={t('account.tokens.namePlaceholder')}
              onChange={(event) => setName(event.target.value)}
              maxLength={TOKEN_LIMITS.name}
              required
              error={fieldError('name')}
              testId="account-token-name"
            />
            <TextField
              label={t('account.tokens.expiry')}
              type="date"
              value={expiry}
              min={bounds.min}
              max={bounds.max}
              onChange={(event) => setExpiry(event.target.value)}
              required
              hint={t('account.tokens.expiryHint')}
              error={fieldError('expiresAt')}
              testId="account-token-expiry"
            />
            <fieldset className="field-span-2 account-token-scopes">
              <legend className="field-label">{t('account.tokens.scopes')}</legend>
              <Checkbox
                label={t('account.tokens.scopeRead')}
                checked={scopes.includes('read')}
                onChange={(event) => toggle('read', event.target.checked)}
                testId="account-token-scope-read"
              />
              <Checkbox
                label={t('account.tokens.scopeWrite')}
                checked={scopes.includes('write')}
                onChange={(event) => toggle('write', event.target.checked)}
                testId="account-token-scope-write"
              />
              <p className="field-hint">{t('account.tokens.scopeHint')}</p>
            </fieldset>
          </div>
          <div className="account-form-footer">
            <div className="account-form-notice" aria-live="polite">
              {notice?.kind === 'failed' ? (
                <InlineAlert tone="error" testId="account-tokens-failed">
                  {t('account.tokens.failed', { reason: [notice.text, ...Object.values(notice.fields)].join(' ') })}
                </InlineAlert>
              ) : null}
              {notice?.kind === 'revoked' ? (
                <InlineAlert tone="success" testId="account-tokens-revoked">
                  {t('account.tokens.revoked', { name: notice.name })}
                </InlineAlert>
              ) : null}
            </div>
            <Button type="submit" variant="primary" loading={busy} data-testid="account-token-create">
              {t('account.tokens.create')}
            </Button>
          </div>
        </form>
      ) : null}
      {!data && tokens.phase === 'error' ? (
        <ErrorState message={apiErrorText(tokens.error, language)} onRetry={tokens.reload} testId="account-tokens-load-error" />
      ) : !data ? (
        <SkeletonBlock lines={3} />
      ) : data.list.length === 0 ? (
        <p className="account-section-description" data-testid="account-tokens-none">
          {t('account.tokens.none')}
        </p>
      ) : (
        <TableScroll>
          <table className="data-table data-table-compact" data-testid="account-tokens-table">
            <thead>
              <tr>
                <TokenHeaderCells vocabulary="account" />
              </tr>
            </thead>
            <tbody>
              {data.list.map((token) => (
                <tr key={token.tokenId} data-testid="account-token-row" data-token-state={token.state}>
                  <TokenCells
                    token={token}
                    vocabulary="account"
                    revokeName={token.name}
                    onRevoke={() => void revoke(token)}
                    revokeTestId="account-token-revoke"
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {!data?.abilities.create && notice ? (
        <div aria-live="polite">
          {notice.kind === 'revoked' ? (
            <InlineAlert tone="success" testId="account-tokens-revoked">
              {t('account.tokens.revoked', { name: notice.name })}
            </InlineAlert>
          ) : (
            <InlineAlert tone="error" testId="account-tokens-failed">
              {t('account.tokens.failed', { reason: notice.text })}
            </InlineAlert>
          )}
        </div>
      ) : null}
    </AccountCard>
  );
}
