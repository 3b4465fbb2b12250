import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  DROPBOX_CSV_ENCODINGS,
  DROPBOX_CSV_MAX_BYTES,
  ERR,
  errorMessage,
  LIMITS,
  type DropboxCsvEncoding,
  type DropboxImportAnswer,
} from '@eln/shared';
import { call } from '../../api';
import { apiErrorText } from '../../api/errors';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { InlineAlert } from '../../ui/InlineAlert';
import { UploadIcon } from '../../ui/icons';
import { fileAsBase64 } from './csvFile';
import { DropboxRowsTable } from './DropboxRowsTable';

/** A file read by the server's import preview: what to send again to store it, and what it found. */
export interface ImportPreview {
  fileName: string;
  file: string;
  encoding: DropboxCsvEncoding;
  answer: DropboxImportAnswer;
}

type Phase = { kind: 'idle' } | { kind: 'reading'; fileName: string } | { kind: 'refused'; message: string };

/**
 * Choose a CSV file; the server reads it (UTF-8 or CP949, detected or chosen) and checks every row, and
 * the preview shows each row with its problems before anything is stored.
 */
export function DropboxImport({
  preview,
  onPreview,
}: {
  preview: ImportPreview | null;
  onPreview: (preview: ImportPreview | null) => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const input = useRef<HTMLInputElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [encoding, setEncoding] = useState<DropboxCsvEncoding>('auto');

  async function read(fileName: string, file: string, chosen: DropboxCsvEncoding) {
    setPhase({ kind: 'reading', fileName });
    onPreview(null);
    try {
      const answer = await call(api.dropboxes.importCsv, { file, encoding: chosen });
      onPreview({ fileName, file, encoding: chosen, answer });
      setPhase({ kind: 'idle' });
    } catch (error) {
      setPhase({ kind: 'refused', message: apiErrorText(error, language) });
    }
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (chosen.size > DROPBOX_CSV_MAX_BYTES) {
      onPreview(null);
      setPhase({ kind: 'refused', message: errorMessage(ERR.tooLarge, language) });
      return;
    }
    await read(chosen.name, await fileAsBase64(chosen), encoding);
  }

  function changeEncoding(next: DropboxCsvEncoding) {
    setEncoding(next);
    if (preview) void read(preview.fileName, preview.file, next);
  }

  const problems = preview ? preview.answer.rows.filter((r) => r.problems.length > 0).length : 0;
  return (
    <div className="dropbox-import" data-testid="dropbox-import">
      <div className="dropbox-import-bar">
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          hidden
          onChange={(event) => void choose(event)}
          data-testid="dropbox-import-file"
        />
        <Button
          icon={<UploadIcon size={16} />}
          onClick={() => input.current?.click()}
          loading={phase.kind === 'reading'}
          data-testid="dropbox-import-choose"
        >
          {phase.kind === 'reading' ? t('dropbox.import.reading', { file: phase.fileName }) : t('dropbox.import.choose')}
        </Button>
        <SelectField
          label={t('dropbox.import.encoding')}
          value={encoding}
          onChange={(e) => changeEncoding(e.target.value as DropboxCsvEncoding)}
          className="dropbox-import-encoding"
          testId="dropbox-import-encoding"
        >
          {DROPBOX_CSV_ENCODINGS.map((value) => (
            <option key={value} value={value}>
              {t(`dropbox.import.encodings.${value}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="dropbox-import-hint">{t('dropbox.import.hint', { max: LIMITS.dropboxRows })}</p>
      {phase.kind === 'refused' ? (
        <InlineAlert tone="error" testId="dropbox-import-error">
          {phase.message}
        </InlineAlert>
      ) : null}
      {preview ? (
        <>
          <InlineAlert tone={preview.answer.ok ? 'success' : 'warning'} testId="dropbox-import-summary">
            {preview.answer.rows.length === 0
              ? t('dropbox.import.noRows', { file: preview.fileName })
              : preview.answer.ok
                ? t('dropbox.import.ready', {
                    file: preview.fileName,
                    count: preview.answer.rows.length,
                    encoding: t(`dropbox.import.encodings.${preview.answer.encoding}`),
                  })
                : t('dropbox.import.problems', { file: preview.fileName, count: problems })}
          </InlineAlert>
          {preview.answer.rows.length > 0 ? <DropboxRowsTable rows={preview.answer.rows} testId="dropbox-preview" /> : null}
        </>
      ) : null}
    </div>
  );
}
