import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { api, type AuditRecord } from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/Button';
import { AuditIcon, DownloadIcon, SearchIcon, UploadIcon } from '../../ui/icons';
import { HiddenFileInput } from '../../ui/HiddenFileInput';
import { InlineAlert } from '../../ui/InlineAlert';
import { ListTable, openRowUnlessOn, type ListColumn } from '../../ui/ListTable';
import { EmptyState, NoMatchesState, PageFrame } from '../../ui/PageFrame';
import { ActionBadge, AuditTimeText, TargetText } from './AuditBits';
import { AuditDetailDialog } from './AuditDetailDialog';
import { AuditFilters } from './AuditFilters';
import {
  AUDIT_PAGE_SIZE,
  auditSearch,
  auditSearchParams,
  EMPTY_AUDIT_QUERY,
  filterOf,
  isAuditFiltered,
  newAuditSearch,
  parseAuditQuery,
  toAuditListBody,
  type AuditFilter,
} from './auditQuery';
import { reasonText } from './labels';
import { formatSize } from './csvExport';
import { readExportHead } from './exportHead';
import { ShieldCheckIcon } from './icons';
import { useAuditExport } from './useAuditExport';
import { useVerifyChain, VerifyResult } from './VerifyResult';
import './audit.css';

const SKELETON_COLUMNS = [30, 70, 70, 60, 60, 50, 50];

interface Opened {
  seq: number;
  initial?: AuditRecord;
}

/**
 * `/admin/audit`: the audit trail, newest first, filtered by actor, action, target and date range (kept in
 * the URL), paged. A row opens its record; "Verify chain" recomputes the hash chain and compares it with
 * the head the server last wrote outside the database, "Compare with an export" also with the head an
 * exported file names; "Export CSV" downloads what the filters match.
 */
export function AuditPage() {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const language = currentLanguage();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => parseAuditQuery(params), [params]);
  const key = auditSearchParams(query).toString();
  const list = useApiQuery(api.audit.list, toAuditListBody(query));
  const [opened, setOpened] = useState<Opened | null>(null);
  const verify = useVerifyChain();
  const exporter = useAuditExport();
  const exportFile = useRef<HTMLInputElement>(null);
  const [noExportHead, setNoExportHead] = useState(false);

  /** Verifies against the head an exported file names on its last line. */
  const compareWithExport = async (file: File) => {
    const head = await readExportHead(file);
    setNoExportHead(head === null);
    if (head) await verify.run(head);
  };

  const filter = useMemo(() => filterOf(query), [query]);
  const filtered = isAuditFiltered(filter);

  const onSearch = (next: AuditFilter) => {
    const search = auditSearchParams(newAuditSearch(next));
    // Searching again for the same thing still asks the server again.
    if (search.toString() === key) list.reload();
    else setParams(search);
  };
  const onExport = async () => {
    const saved = await exporter.run(filter);
    // The export is itself audited: show it when the list would.
    if (saved) list.reload();
  };
  const showTarget = (targetType: string, targetId: string) => {
    setOpened(null);
    setParams(auditSearchParams({ ...EMPTY_AUDIT_QUERY, targetType, targetId }));
  };

  const columns: ListColumn[] = [
    { label: t('columns.seq'), className: 'col-num' },
    { label: t('columns.time') },
    { label: t('columns.actor') },
    { label: t('columns.action') },
    { label: t('columns.target') },
    { label: t('columns.reason') },
    { label: t('columns.clientAddress') },
  ];

  const renderRow = (row: AuditRecord) => (
    <tr
      key={row.seq}
      className="row-link"
      data-testid="audit-row"
      data-seq={row.seq}
      data-action={row.action}
      onClick={openRowUnlessOn('button, a', () => setOpened({ seq: row.seq, initial: row }))}
    >
      <td className="col-num audit-col-seq" data-label={t('columns.seq')}>
        <button
          type="button"
          className="cell-link audit-seq"
          onClick={() => setOpened({ seq: row.seq, initial: row })}
          aria-label={t('openRecord', { seq: row.seq })}
          data-testid="audit-row-open"
        >
          {row.seq}
        </button>
      </td>
      <td className="col-nowrap" data-label={t('columns.time')}>
        <AuditTimeText iso={row.at} />
      </td>
      <td className="col-title audit-col-actor" data-label={t('columns.actor')}>
        {row.actorUserId || row.actorName ? (
          <>
            <span className="cell-main">{row.actorName ?? row.actorUserId}</span>
            {row.actorUserId ? <span className="cell-sub">{row.actorUserId}</span> : null}
          </>
        ) : (
          <span className="cell-muted">{t('noActor')}</span>
        )}
      </td>
      <td data-label={t('columns.action')}>
        <ActionBadge action={row.action} />
      </td>
      <td data-label={t('columns.target')}>
        <TargetText type={row.targetType} id={row.targetId} compact />
      </td>
      <td className="audit-col-reason" data-label={t('columns.reason')}>
        {row.reason ? (
          <span className="audit-reason" title={reasonText(row.reason, t)}>
            {reasonText(row.reason, t)}
          </span>
        ) : (
          <span className="cell-muted">—</span>
        )}
      </td>
      <td className="audit-col-address" data-label={t('columns.clientAddress')}>
        {row.clientAddress ? <span className="cell-mono">{row.clientAddress}</span> : <span className="cell-muted">—</span>}
      </td>
    </tr>
  );

  return (
    <PageFrame
      testId="page-admin-audit"
      title={tc('pages.adminAudit.title')}
      description={t('page.description')}
      icon={<AuditIcon size={20} />}
      actions={
        <>
          <Button
            variant="secondary"
            icon={<ShieldCheckIcon size={16} />}
            onClick={() => void verify.run()}
            loading={verify.running}
            data-testid="audit-verify"
          >
            {t('verify.action')}
          </Button>
          <HiddenFileInput
            inputRef={exportFile}
            accept=".csv,text/csv"
            onFile={(file) => void compareWithExport(file)}
            testId="audit-verify-export-file"
          />
          <Button
            variant="secondary"
            icon={<UploadIcon size={16} />}
            onClick={() => exportFile.current?.click()}
            disabled={verify.running}
            title={t('verify.compareHint')}
            data-testid="audit-verify-export"
          >
            {t('verify.compare')}
          </Button>
          <Button
            variant="primary"
            icon={<DownloadIcon size={16} />}
            onClick={() => void onExport()}
            loading={exporter.busy}
            title={t('export.hint')}
            data-testid="audit-export"
          >
            {t('export.action')}
          </Button>
        </>
      }
    >
      {noExportHead ? (
        <InlineAlert tone="error" testId="audit-verify-no-head">
          {t('verify.noExportHead')}
        </InlineAlert>
      ) : null}
      {verify.outcome ? <VerifyResult outcome={verify.outcome} onOpen={(seq) => setOpened({ seq })} onDismiss={verify.clear} /> : null}
      {exporter.saved ? (
        <InlineAlert tone="success" testId="audit-export-saved">
          {t('export.saved', { name: exporter.saved.filename, size: formatSize(exporter.saved.size, language) })}
        </InlineAlert>
      ) : null}
      <AuditFilters filter={filter} onSearch={onSearch} onReset={() => setParams(new URLSearchParams())} filtered={filtered} />
      <ListTable
        list={list}
        page={query.page}
        pageSize={AUDIT_PAGE_SIZE}
        searchFor={(page) => auditSearch({ ...query, page })}
        testId="audit"
        tableClassName="data-table data-table-compact audit-table"
        columns={columns}
        skeleton={{ rows: 8, widths: SKELETON_COLUMNS }}
        toolbar={<p className="table-legend">{t('export.hint')}</p>}
        empty={
          <div data-testid="audit-empty">
            {filtered ? (
              <NoMatchesState />
            ) : (
              <EmptyState icon={<SearchIcon size={26} />} title={t('emptyTitle')}>
                <p>{t('emptyBody')}</p>
              </EmptyState>
            )}
          </div>
        }
        renderRow={renderRow}
      />
      {opened ? (
        <AuditDetailDialog seq={opened.seq} initial={opened.initial} onClose={() => setOpened(null)} onShowTarget={showTarget} />
      ) : null}
    </PageFrame>
  );
}
