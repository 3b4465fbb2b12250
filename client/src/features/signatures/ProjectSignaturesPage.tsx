import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  api,
  SIGNATURE_OVERVIEW_LIMITS,
  SIGNATURE_REQUEST_STATES,
  type SignatureOverviewNote,
  type SignatureRequestState,
} from '@eln/shared';
import { useApiQuery } from '../../api/queries';
import { parseRecordNo } from '../../lib/listParams';
import { viewerTimeZone } from '../../lib/timeZone';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ListTable, type ListColumn } from '../../ui/ListTable';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { readFilterParam, SegmentedFilter } from '../../ui/SegmentedFilter';
import { NoteStatusBadge } from '../notes/NoteStatusBadge';
import { SignatureIcon } from './icons';
import { RequestCells, useMinuteClock } from './OverviewCells';
import { useOverviewColumns } from './SignatureOverview';

const STATE_PARAM = 'st';
const PAGE_PARAM = 'p';
const PAGE_SIZE = SIGNATURE_OVERVIEW_LIMITS.defaultPageSize;
const SKELETON_WIDTHS = [70, 70, 50, 60, 70, 40];

/**
 * `/project/:id/signatures`: the signature requests of the project's notes the viewer may read, note by
 * note (newest first), as a table: note, person (and who asked, when), what they sign as, status, since
 * when or at what time (in the viewer's zone, naming the signer's), and the reminder. Filtered by state ("waiting
 * only") and paged, both kept in the URL (`st`, `p`).
 */
export function ProjectSignaturesPage() {
  const { t } = useTranslation('signature');
  const { id } = useParams();
  const projectNo = parseRecordNo(id) ?? 0;
  const [params, setParams] = useSearchParams();
  const state: SignatureRequestState | '' = readFilterParam(params, STATE_PARAM, SIGNATURE_REQUEST_STATES);
  const page = Math.max(1, Number(params.get(PAGE_PARAM)) || 1);
  const project = useApiQuery(api.projects.detail, { projectNo }, { enabled: projectNo > 0 });
  const overview = useApiQuery(api.signatureOverview.projectOverview, {
    projectNo,
    page,
    pageSize: PAGE_SIZE,
    ...(state ? { status: state } : {}),
  });
  const requestColumns = useOverviewColumns();
  const now = useMinuteClock();
  const [notice, setNotice] = useState<string | null>(null);

  const searchFor = (nextPage: number, nextState: SignatureRequestState | '' = state) => {
    const search = new URLSearchParams();
    if (nextState) search.set(STATE_PARAM, nextState);
    if (nextPage > 1) search.set(PAGE_PARAM, String(nextPage));
    const text = search.toString();
    return text ? `?${text}` : '';
  };
  const counts = overview.data?.counts;
  const columns: ListColumn[] = [{ label: t('overview.columns.note') }, ...requestColumns.map((label) => ({ label }))];
  const onReminded = (message: string) => {
    setNotice(message || null);
    overview.reload();
  };

  const renderNote = (note: SignatureOverviewNote) => {
    const noteCell = (
      <td rowSpan={Math.max(1, note.requests.length)} className="ov-note" data-label={t('overview.columns.note')}>
        <Link to={`/note/${note.labNoteNo}`} className="cell-link" data-testid="overview-note-link">
          {note.title}
        </Link>
        <span className="cell-sub">{note.labNoteNumber}</span>
        <NoteStatusBadge status={note.status} />
      </td>
    );
    if (note.requests.length === 0) {
      return (
        <tr key={note.labNoteNo} data-testid="overview-row" data-note={note.labNoteNo} data-state="none">
          {noteCell}
          <td colSpan={requestColumns.length} className="cell-muted">
            {t('overview.noRequests')}
          </td>
        </tr>
      );
    }
    return (
      <Fragment key={note.labNoteNo}>
        {note.requests.map((request, index) => (
          <tr
            key={request.signatureId}
            className={index === 0 ? 'ov-first' : undefined}
            data-testid="overview-row"
            data-note={note.labNoteNo}
            data-state={request.state}
            data-signature-id={request.signatureId}
          >
            {index === 0 ? noteCell : null}
            <RequestCells labNoteNo={note.labNoteNo} request={request} now={now} onReminded={onReminded} />
          </tr>
        ))}
      </Fragment>
    );
  };

  return (
    <PageFrame
      testId="page-project-signatures"
      title={t('overview.pageTitle')}
      description={project.data ? t('overview.pageDescription', { title: project.data.title }) : undefined}
      icon={<SignatureIcon size={20} />}
      actions={
        <ButtonLink to={`/project/${projectNo}`} variant="ghost" icon={<ArrowLeftIcon size={16} />} data-testid="overview-back">
          {t('overview.back')}
        </ButtonLink>
      }
    >
      <SegmentedFilter
        options={(['', ...SIGNATURE_REQUEST_STATES] as const).map((value) => ({
          value,
          label: value ? t(`overview.filter.${value}`, { count: counts?.[value] ?? 0 }) : t('overview.filter.all'),
        }))}
        value={state}
        onChange={(value) => setParams(new URLSearchParams(searchFor(1, value)))}
        label={t('overview.filterLabel')}
        testId="overview-filter"
      />
      {notice ? (
        <InlineAlert tone="success" testId="overview-reminded">
          {notice}
        </InlineAlert>
      ) : null}
      <ListTable
        list={overview}
        page={page}
        pageSize={PAGE_SIZE}
        searchFor={(next) => searchFor(next)}
        testId="overview"
        tableClassName="data-table data-table-compact ov-table ov-project-table"
        columns={columns}
        skeleton={{ rows: 5, widths: SKELETON_WIDTHS }}
        toolbar={<span className="cell-sub">{t('overview.timesIn', { zone: viewerTimeZone() })}</span>}
        empty={
          <div data-testid="overview-empty">
            <EmptyState icon={<SignatureIcon size={26} />} title={state ? t('overview.emptyFiltered') : t('overview.empty')} />
          </div>
        }
        renderRow={renderNote}
      />
    </PageFrame>
  );
}
