import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@eln/shared';
import { apiErrorText } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { viewerTimeZone } from '../../lib/timeZone';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonRows } from '../../ui/States';
import { RequestCells, useMinuteClock } from './OverviewCells';
import { TableScroll } from '../../ui/TableScroll';

const SKELETON_WIDTHS = [70, 50, 60, 70, 40];

/** The overview table's column heads, after the note's (the project page) or alone (a note). */
export function useOverviewColumns(): string[] {
  const { t } = useTranslation('signature');
  return (['person', 'role', 'status', 'when', 'action'] as const).map((column) => t(`overview.columns.${column}`));
}

/**
 * The note's signature requests and answers, under its signature cards: who was asked (by whom, when),
 * who signed (with the meaning, the time in the viewer's zone and the signer's recorded zone), declined,
 * was cancelled or removed, who has not answered and for how long, and the reminder. `refreshKey`
 * changes when the note's signatures do, and the overview loads again.
 */
export function SignatureOverview({ labNoteNo, refreshKey }: { labNoteNo: number; refreshKey: string }) {
  const { t } = useTranslation('signature');
  const language = currentLanguage();
  const overview = useApiQuery(api.signatureOverview.noteOverview, { labNoteNo });
  const columns = useOverviewColumns();
  const now = useMinuteClock();
  const [notice, setNotice] = useState<string | null>(null);
  const seen = useRef(refreshKey);
  const { reload } = overview;

  useEffect(() => {
    if (seen.current === refreshKey) return;
    seen.current = refreshKey;
    reload();
  }, [refreshKey, reload]);

  const requests = overview.data?.requests ?? [];
  const headingId = `signature-overview-${labNoteNo}`;
  return (
    <section className="sig-overview" aria-labelledby={headingId} data-testid="signature-overview">
      <h3 className="sig-overview-title" id={headingId}>
        {t('overview.title')}
      </h3>
      {notice ? (
        <InlineAlert tone="success" testId="overview-reminded">
          {notice}
        </InlineAlert>
      ) : null}
      {overview.phase === 'error' && !overview.data ? (
        <ErrorState message={apiErrorText(overview.error, language)} onRetry={reload} testId="signature-overview-error" />
      ) : overview.data && requests.length === 0 ? (
        <p className="cell-muted" data-testid="signature-overview-empty">
          {t('overview.noRequests')}
        </p>
      ) : (
        <TableScroll>
          <table className="data-table data-table-compact ov-table" aria-busy={overview.phase === 'loading'}>
            <caption className="visually-hidden">{t('overview.title')}</caption>
            <thead>
              <tr>
                {columns.map((label) => (
                  <th key={label} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {!overview.data ? (
                <SkeletonRows rows={2} columns={SKELETON_WIDTHS} />
              ) : (
                requests.map((request) => (
                  <tr
                    key={request.signatureId}
                    data-testid="overview-row"
                    data-state={request.state}
                    data-signature-id={request.signatureId}
                  >
                    <RequestCells
                      labNoteNo={labNoteNo}
                      request={request}
                      now={now}
                      onReminded={(message) => {
                        setNotice(message || null);
                        reload();
                      }}
                    />
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      <p className="sig-overview-zone cell-sub">{t('overview.timesIn', { zone: viewerTimeZone() })}</p>
    </section>
  );
}
