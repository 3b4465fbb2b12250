import { useTranslation } from 'react-i18next';
import { DROPBOX_ROW_PROBLEM_TEXT, type CheckedDropboxRow, type DropboxRow } from '@eln/shared';
import { currentLanguage } from '../../i18n';

type Row = DropboxRow & Partial<Pick<CheckedDropboxRow, 'line' | 'problems'>>;

/** A dropbox's rows; rows from an import preview also show their file line and problems. */
export function DropboxRowsTable({ rows, testId }: { rows: readonly Row[]; testId: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const checked = rows.some((r) => r.line !== undefined);
  return (
    <div className="table-wrap dropbox-rows">
      <table className="data-table" data-testid={`${testId}-table`}>
        <thead>
          <tr>
            <th className="col-num">{checked ? t('dropbox.rows.line') : t('list.number')}</th>
            <th>{t('dropbox.rows.code')}</th>
            <th>{t('dropbox.rows.name')}</th>
            {checked ? <th>{t('dropbox.rows.check')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const problems = row.problems ?? [];
            return (
              <tr key={`${row.line ?? index}`} className={problems.length ? 'row-problem' : undefined} data-testid={`${testId}-row`}>
                <td className="col-num">{row.line ?? index + 1}</td>
                <td className="mono">{row.code || <span className="cell-muted">—</span>}</td>
                <td>{row.name}</td>
                {checked ? (
                  <td data-testid={`${testId}-problems`}>
                    {problems.length ? (
                      <ul className="row-problems">
                        {problems.map((problem) => (
                          <li key={problem}>{DROPBOX_ROW_PROBLEM_TEXT[problem][language]}</li>
                        ))}
                      </ul>
                    ) : (
                      <span className="row-ok">{t('dropbox.rows.ok')}</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
