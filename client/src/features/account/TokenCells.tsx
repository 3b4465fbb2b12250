import { useTranslation } from 'react-i18next';
import type { TokenRecord } from '@eln/shared';
import { currentLanguage } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/format';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TOKEN_STATE_TONES } from './tokenForm';
import './tokens.css';

/** Whose words the cells use: the person's own list (My account) or the administrators' list of everyone's. */
type Vocabulary = 'account' | 'admin';
const COLUMNS = ['name', 'scopes', 'expires', 'lastUsed', 'state'] as const;

/** The header cells of a token's columns (the row's own cells: TokenCells), and the unnamed Revoke column. */
export function TokenHeaderCells({ vocabulary }: { vocabulary: Vocabulary }) {
  const { t } = useTranslation();
  return (
    <>
      {COLUMNS.map((column) => (
        <th key={column} scope="col">
          {t(`${vocabulary}.tokens.columns.${column}`)}
        </th>
      ))}
      <th scope="col">
        <span className="visually-hidden">{t('account.tokens.revoke')}</span>
      </th>
    </>
  );
}

/**
 * A token's cells as both token lists show them: its name and prefix, scopes, expiry, last use (when and
 * from where), state, and Revoke while it is not revoked. `revokeName` names it in the button's label.
 */
export function TokenCells({
  token,
  vocabulary,
  revokeName,
  onRevoke,
  revokeTestId,
}: {
  token: TokenRecord;
  vocabulary: Vocabulary;
  revokeName: string;
  onRevoke(): void;
  revokeTestId: string;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const label = (column: (typeof COLUMNS)[number]) => t(`${vocabulary}.tokens.columns.${column}`);
  return (
    <>
      <td data-label={label('name')}>
        <span className="token-name">{token.name}</span>
        <span className="cell-mono token-detail">{token.prefix}…</span>
      </td>
      <td data-label={label('scopes')}>{token.scopes.map((scope) => t(`account.tokens.scopeNames.${scope}`)).join(', ')}</td>
      <td className="col-date" data-label={label('expires')}>
        {formatDate(token.expiresAt, language)}
      </td>
      <td data-label={label('lastUsed')}>
        {token.lastUsedAt ? (
          <>
            {formatDateTime(token.lastUsedAt, language)}
            {token.lastUsedFrom ? (
              <span className="cell-mono token-detail">{t('account.tokens.from', { address: token.lastUsedFrom })}</span>
            ) : null}
          </>
        ) : (
          <span className="cell-muted">{t('account.tokens.never')}</span>
        )}
      </td>
      <td data-label={label('state')}>
        <Badge tone={TOKEN_STATE_TONES[token.state]}>{t(`${vocabulary}.tokens.states.${token.state}`)}</Badge>
      </td>
      <td className="col-actions">
        {token.state === 'revoked' ? null : (
          <Button
            size="sm"
            variant="secondary"
            onClick={onRevoke}
            aria-label={t('account.tokens.revokeOf', { name: revokeName })}
            data-testid={revokeTestId}
          >
            {t('account.tokens.revoke')}
          </Button>
        )}
      </td>
    </>
  );
}
