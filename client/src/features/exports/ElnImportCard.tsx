import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  api,
  API_BASE,
  ELN_IMPORT_LIMITS,
  ERR,
  errorMessage,
  formatBytes,
  SUCCESS,
  type ApiResponse,
  type ElnImportAnswer,
} from '@eln/shared';
import { apiQueryKey } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { hideProgress, showProgress } from '../../modals/store';
import { Button, ButtonLink } from '../../ui/Button';
import { ArrowRightIcon, UploadIcon } from '../../ui/icons';
import { HiddenFileInput } from '../../ui/HiddenFileInput';
import { InlineAlert } from '../../ui/InlineAlert';
import { browserDeps } from '../audit/useAuditExport';
import { ArchiveIcon } from '../audit/icons';

type Outcome = { kind: 'imported'; answer: ElnImportAnswer } | { kind: 'refused'; message: string };

/** Sends the archive as multipart with XMLHttpRequest, whose upload events drive the loading overlay. */
async function sendArchive(file: File): Promise<ElnImportAnswer> {
  const language = browserDeps.language();
  const token = await browserDeps.accessToken();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${api.exports.importEln.path}`);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', language);
    xhr.upload.onprogress = (event) => {
      // The upload is most of the wait; checking and importing the archive takes the last part.
      if (event.lengthComputable && event.total > 0) showProgress(Math.floor((event.loaded / event.total) * 90));
    };
    xhr.onerror = () => reject(new Error(errorMessage(ERR.unavailable, language)));
    xhr.onload = () => {
      let envelope: ApiResponse<ElnImportAnswer> | null = null;
      try {
        envelope = JSON.parse(xhr.responseText) as ApiResponse<ElnImportAnswer>;
      } catch {
        envelope = null;
      }
      if (envelope?.status === SUCCESS && envelope.data) resolve(envelope.data);
      else reject(new Error(envelope?.message || errorMessage(xhr.status === 413 ? ERR.tooLarge : ERR.unexpected, language)));
    };
    const form = new FormData();
    form.append('archive', file, file.name);
    xhr.send(form);
  });
}

/** Imports a .eln archive (this notebook's or another's) as a new project, after its checksums and signature are checked. */
export function ElnImportCard() {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const importFile = async (file: File) => {
    setOutcome(null);
    if (file.size > ELN_IMPORT_LIMITS.archiveBytes) {
      setOutcome({ kind: 'refused', message: errorMessage(ERR.tooLarge, language) });
      return;
    }
    setBusy(true);
    showProgress(0);
    try {
      setOutcome({ kind: 'imported', answer: await sendArchive(file) });
      // The imports listed beside, and the keys that signed them, now count this one.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: apiQueryKey(api.exports.imports) }),
        queryClient.invalidateQueries({ queryKey: apiQueryKey(api.exports.knownKeys) }),
      ]);
    } catch (error) {
      setOutcome({ kind: 'refused', message: (error as Error).message });
    } finally {
      hideProgress();
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <section className="card export-card" aria-labelledby="eln-import-title" data-testid="eln-import">
      <header className="download-head">
        <span className="download-icon">
          <ArchiveIcon size={22} />
        </span>
        <div>
          <h2 className="card-title" id="eln-import-title">
            {t('exports.importTitle')}
          </h2>
          <p className="download-format">{t('exports.importFormat', { size: formatBytes(ELN_IMPORT_LIMITS.archiveBytes, language) })}</p>
        </div>
      </header>
      <p className="download-body">{t('exports.importBody')}</p>
      {outcome?.kind === 'imported' ? (
        <InlineAlert tone="success" testId="eln-import-done">
          <span>
            {t(`exports.imported.${outcome.answer.signed}`, {
              title: outcome.answer.title,
              count: outcome.answer.noteCount,
              name: outcome.answer.keyName ?? '',
            })}
          </span>{' '}
          {outcome.answer.uncheckedFiles.length ? (
            <span data-testid="eln-import-unchecked">
              {t('exports.notHashChecked', { files: outcome.answer.uncheckedFiles.join(', ') })}
            </span>
          ) : null}{' '}
          <ButtonLink to={`/project/${outcome.answer.projectNo}`} variant="ghost" size="sm" data-testid="eln-import-open">
            {t('exports.openProject')}
            <ArrowRightIcon size={14} />
          </ButtonLink>
        </InlineAlert>
      ) : outcome?.kind === 'refused' ? (
        <InlineAlert tone="error" testId="eln-import-refused">
          {outcome.message}
        </InlineAlert>
      ) : null}
      <HiddenFileInput
        inputRef={input}
        accept=".eln,application/vnd.eln+zip,application/zip"
        onFile={(file) => void importFile(file)}
        testId="eln-import-file"
      />
      <div className="download-actions">
        <Button
          variant="secondary"
          icon={<UploadIcon size={16} />}
          loading={busy}
          onClick={() => input.current?.click()}
          data-testid="eln-import-choose"
        >
          {t('exports.importAction')}
        </Button>
      </div>
    </section>
  );
}
