import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { api, dropboxUpdateRequest, ERR, errorMessage, type DropboxDetail } from '@eln/shared';
import { call } from '../../api';
import { useApiQuery } from '../../api/queries';
import { apiErrorText, isApiError } from '../../api/errors';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { fieldText, validateForm, type FieldErrorMap } from '../../lib/forms';
import { useServerErrorPage } from '../../lib/useServerErrorPage';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, DownloadIcon, DropboxIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { PageFrame } from '../../ui/PageFrame';
import { ErrorState } from '../../ui/States';
import { dropboxCsv, downloadText } from './csvFile';
import { DropboxBasicsFields, DropboxFormFrame, type DropboxBasics } from './DropboxForm';
import { DropboxImport, type ImportPreview } from './DropboxImport';
import { DropboxRowsTable } from './DropboxRowsTable';
import { DropboxStatusBadge } from './DropboxStatus';
import { withRowsFromRefusal } from './refusals';

type Notice = { tone: 'success' | 'error'; text: string } | null;

/** `/dropbox/{id}`: a dropbox's rows (exportable as CSV); managers change its title and status and re-import its rows. */
export function DropboxDetailPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const dropboxNo = Number(useParams().id);
  // The form starts from what the server has now: never from another dropbox's detail, nor from one cached
  // earlier (a fresher answer arriving later would reset the title and status being typed).
  const detail = useApiQuery(api.dropboxes.detail, { dropboxNo }, { keepPrevious: false, gcTime: 0 });
  useServerErrorPage(detail);
  const data = detail.data;

  return (
    <PageFrame
      testId="page-dropbox-detail"
      title={data?.title ?? t('pages.dropboxDetail.title')}
      description={t('pages.dropboxDetail.description')}
      icon={<DropboxIcon size={20} />}
      actions={
        <>
          {data ? (
            <Button
              icon={<DownloadIcon size={16} />}
              onClick={() => downloadText(dropboxCsv(data.rows), `${data.title}.csv`)}
              data-testid="dropbox-export"
            >
              {t('dropbox.export')}
            </Button>
          ) : null}
          <ButtonLink to="/dropbox" variant="ghost" icon={<ArrowLeftIcon size={16} />}>
            {t('dropbox.backToList')}
          </ButtonLink>
        </>
      }
    >
      {detail.phase === 'error' && !data ? (
        <ErrorState message={apiErrorText(detail.error, language)} onRetry={detail.reload} testId="dropbox-load-error" />
      ) : null}
      {data ? (
        <>
          <p className="dropbox-meta" data-testid="dropbox-meta">
            <DropboxStatusBadge status={data.status} />
            <span>{t('dropbox.rowCount', { count: data.rowCount })}</span>
            <span>{t('dropbox.updated', { when: formatDateTime(data.updatedAt, language), who: data.updatedByName ?? '—' })}</span>
          </p>
          {data.abilities.update ? <ManageDropbox detail={data} onChanged={detail.reload} /> : null}
          <section className="card form-card dropbox-rows-card">
            <h2 className="form-section-title">{t('dropbox.rows.heading')}</h2>
            <DropboxRowsTable rows={data.rows} testId="dropbox-rows" />
          </section>
        </>
      ) : null}
    </PageFrame>
  );
}

function ManageDropbox({ detail, onChanged }: { detail: DropboxDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [basics, setBasics] = useState<DropboxBasics>({ title: detail.title, status: detail.status });
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);

  useEffect(() => setBasics({ title: detail.title, status: detail.status }), [detail.title, detail.status]);

  async function save() {
    const checked = validateForm(dropboxUpdateRequest, { dropboxNo: detail.dropboxNo, ...basics });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    await run(() => call(api.dropboxes.update, checked.data), t('dropbox.saved'));
  }

  async function replaceRows() {
    if (!preview?.answer.ok) return;
    const file = preview;
    await run(
      () => call(api.dropboxes.importCsv, { dropboxNo: detail.dropboxNo, file: file.file, encoding: file.encoding }),
      t('dropbox.import.stored', { count: file.answer.rows.length }),
    );
    setPreview((current) => (current === file ? null : current));
  }

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setNotice(null);
    try {
      await action();
      setNotice({ tone: 'success', text: done });
      onChanged();
    } catch (error) {
      if (isApiError(error) && error.status === ERR.dropboxDuplicate)
        setErrors({ title: { field: 'title', reason: 'invalidValue', message: errorMessage(ERR.dropboxDuplicate, language) } });
      else setNotice({ tone: 'error', text: apiErrorText(error, language) });
      setPreview((current) => withRowsFromRefusal(current, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <DropboxFormFrame
      onSubmit={() => void save()}
      busy={busy}
      submitLabel={t('dropbox.save')}
      onCancel={() => setBasics({ title: detail.title, status: detail.status })}
    >
      <DropboxBasicsFields value={basics} onChange={setBasics} titleError={errors.title?.message ?? fieldText(errors, 'title', language)} />
      <div className="form-section">
        <h2 className="form-section-title">{t('dropbox.import.replaceHeading')}</h2>
        <DropboxImport preview={preview} onPreview={setPreview} />
        {preview?.answer.ok ? (
          <div className="dropbox-replace">
            <Button variant="secondary" onClick={() => void replaceRows()} loading={busy} data-testid="dropbox-replace-rows">
              {t('dropbox.import.replace', { count: preview.answer.rows.length })}
            </Button>
          </div>
        ) : null}
      </div>
      {notice ? (
        <InlineAlert tone={notice.tone} testId="dropbox-notice">
          {notice.text}
        </InlineAlert>
      ) : null}
    </DropboxFormFrame>
  );
}
