import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage, type SchemaThumbnail } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { currentLanguage } from '../../i18n';
import { Dialog } from '../../modals/Dialog';
import { Button } from '../../ui/Button';
import { HiddenFileInput } from '../../ui/HiddenFileInput';
import { InlineAlert } from '../../ui/InlineAlert';
import { UploadIcon } from '../../ui/icons';
import { freshAccessToken } from '../editor/token';
import { UploadError, uploadFile } from '../editor/upload';
import { SchemaThumb } from './SchemaThumb';
import { THUMBNAIL_ACCEPT, THUMBNAIL_MAX_MB, thumbnailRefusal } from './thumbnail';

/** Whose thumbnail the dialog changes: a saved type, or one of its saved schemas. */
export interface ThumbnailTarget {
  schemasTypeNo: number;
  schemaNo: number | null;
  name: string;
  current: SchemaThumbnail | null;
}

/**
 * The thumbnail change modal: pick an image (JPG, PNG or GIF up to 3 MB), see it beside the current one,
 * and apply it (uploaded with progress, then set) or remove the current one. Cancel changes nothing: the
 * image is sent only on Apply. A refusal (the client's check or the server's) is shown in the dialog.
 */
export function ThumbnailDialog({
  target,
  onClose,
  onChanged,
}: {
  target: ThumbnailTarget;
  onClose(): void;
  onChanged(thumbnail: SchemaThumbnail | null): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const input = useRef<HTMLInputElement>(null);
  const pickButton = useRef<HTMLButtonElement>(null);
  const uploading = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState<'apply' | 'remove' | null>(null);

  // The preview's object URL lives as long as it is shown.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  // Closing mid-upload stops it.
  useEffect(() => () => uploading.current?.abort(), []);

  const pick = (picked: File) => {
    const refusal = thumbnailRefusal(picked.name, picked.size);
    if (refusal) {
      setFile(null);
      setPreview(null);
      setError(errorMessage(refusal, language));
      return;
    }
    setError(null);
    setFile(picked);
    setPreview(URL.createObjectURL(picked));
  };

  const setThumbnail = (fileId: string | null) =>
    call(api.schemas.setThumbnail, { schemasTypeNo: target.schemasTypeNo, schemaNo: target.schemaNo, fileId });

  async function apply() {
    if (!file || busy) return;
    setBusy('apply');
    setError(null);
    const controller = new AbortController();
    uploading.current = controller;
    try {
      const uploaded = await uploadFile({
        owner: { schemasTypeNo: target.schemasTypeNo, schemaNo: target.schemaNo },
        file,
        token: await freshAccessToken(),
        language,
        onProgress: (percent) => setProgress(Math.round(percent)),
        signal: controller.signal,
      });
      uploading.current = null;
      const answer = await setThumbnail(uploaded.fileId);
      onChanged(answer.thumbnail);
    } catch (failure) {
      if (controller.signal.aborted) return;
      setError(failure instanceof UploadError ? failure.message : apiErrorText(failure, language));
      setBusy(null);
      setProgress(null);
    }
  }

  async function remove() {
    if (busy) return;
    setBusy('remove');
    setError(null);
    try {
      await setThumbnail(null);
      onChanged(null);
    } catch (failure) {
      setError(apiErrorText(failure, language));
      setBusy(null);
    }
  }

  const cancel = () => {
    uploading.current?.abort();
    onClose();
  };

  return (
    <Dialog
      title={t('schema.thumbnail.dialogTitle', { name: target.name })}
      onClose={cancel}
      size="md"
      testId="thumbnail-dialog"
      initialFocus={pickButton}
      footer={
        <>
          {target.current && !file ? (
            <Button
              variant="danger"
              onClick={() => void remove()}
              loading={busy === 'remove'}
              disabled={busy !== null}
              className="thumb-remove"
              data-testid="thumbnail-remove"
            >
              {t('schema.thumbnail.remove')}
            </Button>
          ) : null}
          <Button variant="ghost" onClick={cancel} data-testid="thumbnail-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            variant="primary"
            onClick={() => void apply()}
            loading={busy === 'apply'}
            disabled={!file || busy !== null}
            data-testid="thumbnail-apply"
          >
            {t('schema.thumbnail.apply')}
          </Button>
        </>
      }
    >
      <div className="thumb-dialog">
        <div className="thumb-compare">
          <figure className="thumb-figure">
            <SchemaThumb thumbnail={target.current} name={target.name} size="lg" testId="thumbnail-current" />
            <figcaption>{target.current ? t('schema.thumbnail.current') : t('schema.thumbnail.none')}</figcaption>
          </figure>
          {preview ? (
            <figure className="thumb-figure">
              <span className="schema-thumb schema-thumb-lg">
                <img src={preview} alt={t('schema.thumbnail.chosen')} data-testid="thumbnail-preview" />
              </span>
              <figcaption>{file?.name}</figcaption>
            </figure>
          ) : null}
        </div>
        <HiddenFileInput inputRef={input} accept={THUMBNAIL_ACCEPT} onFile={pick} testId="thumbnail-input" />
        <div className="thumb-pick">
          <Button
            ref={pickButton}
            icon={<UploadIcon size={16} />}
            onClick={() => input.current?.click()}
            disabled={busy !== null}
            data-testid="thumbnail-pick"
          >
            {file ? t('schema.thumbnail.pickAnother') : t('schema.thumbnail.pick')}
          </Button>
          <p className="field-hint">{t('schema.thumbnail.hint', { max: THUMBNAIL_MAX_MB })}</p>
        </div>
        {progress !== null ? (
          <div className="thumb-progress" data-testid="thumbnail-progress">
            <progress value={progress} max={100} aria-label={t('schema.thumbnail.progress')} />
            <span aria-live="polite">{t('schema.thumbnail.uploading', { percent: progress })}</span>
          </div>
        ) : null}
        {error ? (
          <InlineAlert tone="error" testId="thumbnail-error">
            {error}
          </InlineAlert>
        ) : null}
      </div>
    </Dialog>
  );
}
