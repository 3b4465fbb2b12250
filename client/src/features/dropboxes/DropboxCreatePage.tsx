import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { api, dropboxCreateRequest, ERR, errorMessage } from '@eln/shared';
import { call } from '../../api';
import { useApiQuery } from '../../api/queries';
import { apiErrorText, isApiError } from '../../api/errors';
import { currentLanguage } from '../../i18n';
import { fieldText, validateForm, type FieldErrorMap } from '../../lib/forms';
import { ButtonLink } from '../../ui/Button';
import { ArrowLeftIcon, DropboxIcon, LockIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { DropboxBasicsFields, DropboxFormFrame, type DropboxBasics } from './DropboxForm';
import { DropboxImport, type ImportPreview } from './DropboxImport';
import { withRowsFromRefusal } from './refusals';

/** `/dropbox/create`: a title, a status and the rows of a CSV file, previewed before anything is stored. */
export function DropboxCreatePage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  // The list says whether the caller may create dropboxes.
  const abilities = useApiQuery(api.dropboxes.list, { pageSize: 1 });
  const [basics, setBasics] = useState<DropboxBasics>({ title: '', status: 'Y' });
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choosePreview = (next: ImportPreview | null) => {
    setPreview(next);
    setRefusal(null);
  };

  async function create() {
    setRefusal(null);
    const rows = preview?.answer.rows.map(({ code, name }) => ({ code, name })) ?? [];
    const checked = validateForm(dropboxCreateRequest, { ...basics, rows: rows.length ? rows : [{ code: '', name: '' }] });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok && checked.errors.title) return;
    if (!preview || !preview.answer.ok) {
      setRefusal(t('dropbox.import.needRows'));
      return;
    }
    setBusy(true);
    try {
      const answer = await call(api.dropboxes.create, { ...basics, rows });
      void navigate(`/dropbox/${answer.dropboxNo}`, { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === ERR.dropboxDuplicate)
        setErrors({ title: { field: 'title', reason: 'invalidValue', message: errorMessage(ERR.dropboxDuplicate, language) } });
      else setRefusal(apiErrorText(error, language));
      setPreview((current) => withRowsFromRefusal(current, error));
    } finally {
      setBusy(false);
    }
  }

  const titleError = errors.title?.message ?? fieldText(errors, 'title', language);
  return (
    <PageFrame
      testId="page-dropbox-create"
      title={t('pages.dropboxCreate.title')}
      description={t('pages.dropboxCreate.description')}
      icon={<DropboxIcon size={20} />}
      actions={
        <ButtonLink to="/dropbox" variant="ghost" icon={<ArrowLeftIcon size={16} />}>
          {t('dropbox.backToList')}
        </ButtonLink>
      }
    >
      {abilities.data && !abilities.data.abilities.create ? (
        <div className="card" data-testid="dropbox-create-forbidden">
          <EmptyState icon={<LockIcon size={26} />} title={t('dropbox.noPermissionTitle')}>
            <p>{t('dropbox.noPermissionBody')}</p>
          </EmptyState>
        </div>
      ) : (
        <DropboxFormFrame
          onSubmit={() => void create()}
          busy={busy}
          submitLabel={t('dropbox.createSubmit')}
          submitDisabled={!abilities.data}
          onCancel={() => void navigate('/dropbox')}
        >
          <DropboxBasicsFields value={basics} onChange={setBasics} titleError={titleError} />
          <div className="form-section">
            <h2 className="form-section-title">{t('dropbox.import.heading')}</h2>
            <DropboxImport preview={preview} onPreview={choosePreview} />
            {refusal ? (
              <InlineAlert tone="error" testId="dropbox-refusal">
                {refusal}
              </InlineAlert>
            ) : null}
          </div>
        </DropboxFormFrame>
      )}
    </PageFrame>
  );
}
