import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from './icons';
import { Button } from './Button';

/** A failed load, in place of the content, with a way to try again. */
export function ErrorState({ message, onRetry, testId }: { message: string; onRetry?: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="error-state" role="alert" data-testid={testId}>
      <span className="error-state-icon">
        <AlertIcon size={22} />
      </span>
      <p className="error-state-message">{message}</p>
      {onRetry ? (
        <Button size="sm" onClick={onRetry} data-testid={testId ? `${testId}-retry` : undefined}>
          {t('common.retry')}
        </Button>
      ) : null}
    </div>
  );
}

/** Placeholder rows while a table loads. `columns` gives each cell's relative width. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: readonly number[] }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <tr key={row} className="skeleton-row" aria-hidden="true">
          {columns.map((width, column) => (
            <td key={column}>
              <span
                className="skeleton skeleton-text"
                style={{ width: `${Math.max(20, Math.min(100, width - ((row * 7 + column * 13) % 25)))}%` }}
              />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** Placeholder lines for a card or a form. */
export function SkeletonBlock({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton-block" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton skeleton-line" style={{ width: `${90 - ((index * 17) % 45)}%` }} />
      ))}
    </div>
  );
}

/** A labelled value in a definition list. */
export function DetailRow({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
