import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_LEVEL, api, type AdminTokenRecord, type TokenSettings } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { confirm } from '../../modals/store';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Field';
import { KeyIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';
import { TokenCells, TokenHeaderCells } from '../account/TokenCells';
import './accessTokens.css';
import { TableScroll } from '../../ui/TableScroll';

/** The newest tokens the card lists; the count says how many there are in all. */
const SHOWN = 20;
const LEVELS = Array.from({ length: ADMIN_LEVEL }, (_, index) => index + 1);

type Notice = { kind: 'saved' } | { kind: 'failed'; message: string } | null;

/**
 * The user list's card of personal access tokens (server/src/tokens): every person's tokens, newest first,
 * with their owner, scopes, expiry and last use, each revocable; and the levels whose people may not use
 * tokens at all.
 */
export function AccessTokensCard() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const tokens = useApiQuery(api.tokens.adminList, { page: 1, pageSize: SHOWN });
  const settings = useApiQuery(api.tokens.settings, {});
  const [notice, setNotice] = useState<Notice>(null);
  const data = tokens.data;

  const revoke = async (token: AdminTokenRecord) => {
    if (!(await confirm(t('account.tokens.confirmRevoke', { name: token.name }), { okLabel: t('account.tokens.revoke') }))) return;
    setNotice(null);
    try {
      await call(api.tokens.revoke, { tokenId: token.tokenId });
    } catch (error) {
      setNotice({ kind: 'failed', message: apiErrorText(error, language) });
    } finally {
      tokens.reload();
    }
  };

  const renderList = () => {
    if (tokens.phase === 'error' && !data)
      return <ErrorState message={apiErrorText(tokens.error, language)} onRetry={tokens.reload} testId="admin-tokens-load-error" />;
    if (!data) return <SkeletonBlock lines={2} />;
    if (data.list.length === 0)
      return (
        <p className="admin-tokens-hint" data-testid="admin-tokens-none">
          {t('admin.tokens.none')}
        </p>
      );
    return (
      <>
        <TableScroll>
          <table className="data-table data-table-compact" data-testid="admin-tokens-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.tokens.columns.owner')}</th>
                <TokenHeaderCells vocabulary="admin" />
              </tr>
            </thead>
            <tbody>
              {data.list.map((token) => (
                <tr key={token.tokenId} data-testid="admin-token-row" data-token-state={token.state}>
                  <td data-label={t('admin.tokens.columns.owner')}>
                    <span className="token-name">{token.userName}</span>
                    <span className="cell-mono token-detail">{token.userId}</span>
                  </td>
                  <TokenCells
                    token={token}
                    vocabulary="admin"
                    revokeName={`${token.name} (${token.userId})`}
                    onRevoke={() => void revoke(token)}
                    revokeTestId="admin-token-revoke"
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {data.totalCount > data.list.length ? (
          <p className="admin-tokens-hint" data-testid="admin-tokens-more">
            {t('admin.tokens.more', { shown: formatNumber(data.list.length, language), count: formatNumber(data.totalCount, language) })}
          </p>
        ) : null}
      </>
    );
  };

  return (
    <section className="card admin-tokens" aria-labelledby="admin-tokens-title" data-testid="admin-tokens">
      <header className="card-header">
        <h2 className="card-title" id="admin-tokens-title">
          <KeyIcon size={16} />
          {t('admin.tokens.title')}
        </h2>
      </header>
      <p className="admin-tokens-hint">{t('admin.tokens.hint')}</p>
      {settings.data ? (
        <LevelsForm
          settings={settings.data}
          onSaved={() => {
            setNotice({ kind: 'saved' });
            settings.reload();
            tokens.reload();
          }}
          onFailed={(message) => setNotice({ kind: 'failed', message })}
        />
      ) : null}
      <div aria-live="polite">
        {notice?.kind === 'saved' ? (
          <InlineAlert tone="success" testId="admin-tokens-saved">
            {t('admin.tokens.levelsSaved')}
          </InlineAlert>
        ) : null}
        {notice?.kind === 'failed' ? (
          <InlineAlert tone="error" testId="admin-tokens-failed">
            {t('account.tokens.failed', { reason: notice.message })}
          </InlineAlert>
        ) : null}
      </div>
      {renderList()}
    </section>
  );
}

function LevelsForm({
  settings,
  onSaved,
  onFailed,
}: {
  settings: TokenSettings;
  onSaved: () => void;
  onFailed: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState(settings);
  const [levels, setLevels] = useState(settings.forbiddenLevels);
  const [busy, setBusy] = useState(false);
  if (source !== settings) {
    setSource(settings);
    setLevels(settings.forbiddenLevels);
  }
  const changed = [...levels].sort((a, b) => a - b).join(',') !== settings.forbiddenLevels.join(',');

  const save = async () => {
    setBusy(true);
    try {
      await call(api.tokens.updateSettings, { forbiddenLevels: levels });
      onSaved();
    } catch (error) {
      onFailed(apiErrorText(error, currentLanguage()));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="admin-tokens-levels-form">
      <fieldset className="admin-tokens-levels" data-testid="admin-tokens-levels">
        <legend className="field-label">{t('admin.tokens.levels')}</legend>
        {LEVELS.map((level) => (
          <Checkbox
            key={level}
            label={t('admin.tokens.level', { level })}
            checked={levels.includes(level)}
            onChange={(event) => setLevels(event.target.checked ? [...levels, level] : levels.filter((each) => each !== level))}
            testId={`admin-tokens-level-${level}`}
          />
        ))}
      </fieldset>
      <p className="admin-tokens-hint">{t('admin.tokens.levelsHint')}</p>
      <Button
        size="sm"
        variant="secondary"
        loading={busy}
        disabled={!changed}
        onClick={() => void save()}
        data-testid="admin-tokens-levels-save"
      >
        {t('admin.tokens.saveLevels')}
      </Button>
    </div>
  );
}
