import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  api,
  FILE_TYPE_CHECKS,
  FILE_TYPES,
  fileTypesUpdateRequest,
  IMAGE_TYPES,
  type ExtraFileType,
  type ExtraFileTypeInput,
  type FileTypeCheck,
  type FileTypesAnswer,
  type Language,
} from '@eln/shared';
import { call } from '../../api';
import { apiErrorText, fieldErrorsOf } from '../../api/errors';
import { apiQueryKey, useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { fieldText, toErrorMap, validateForm, type FieldErrorMap } from '../../lib/forms';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { CloseIcon, PlusIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { ErrorState, SkeletonBlock } from '../../ui/States';

type Draft = { extension: string; mimeType: string; check: FileTypeCheck; signatures: string };
const EMPTY_DRAFT: Draft = { extension: '', mimeType: '', check: 'text', signatures: '' };

type Notice = { kind: 'added' | 'removed'; extension: string } | { kind: 'failed'; message: string } | null;

/** A stored type as the update call takes it back. */
const asInput = ({ extension, mimeType, check, signatures }: ExtraFileType): ExtraFileTypeInput => ({
  extension,
  mimeType,
  check,
  signatures,
});

/** The new type as the update call takes it: alternatives of first bytes are separated by commas. */
function draftInput(draft: Draft): ExtraFileTypeInput {
  const signatures = draft.signatures
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return {
    extension: draft.extension,
    mimeType: draft.mimeType,
    check: draft.check,
    signatures: draft.check === 'signature' ? signatures : [],
  };
}

/** The first refusal of the first bytes: of the list, or of one of its alternatives (`signatures.N`). */
function signaturesError(errors: FieldErrorMap, language: Language): string | undefined {
  const field = Object.keys(errors).find((name) => name === 'signatures' || name.startsWith('signatures.'));
  return field ? fieldText(errors, field, language) : undefined;
}

/**
 * The Info dialog's file types: uploads take the spec's types, and administrators add others their lab
 * attaches (CSV from instruments, most often), each with the check its content must pass, as text or by
 * its first bytes. Each addition and removal is saved at once and audited with the list before and after.
 */
export function FileTypesPanel() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const types = useApiQuery(api.files.types, {});
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const data = types.data;
  const editable = data?.abilities.update === true;

  /** Saves the whole list; field errors are those of the entry at `index` (the new one), without their `types.N.` prefix. */
  async function save(list: ExtraFileTypeInput[], index: number | null): Promise<FileTypesAnswer | null> {
    const prefix = `types.${index ?? -1}.`;
    const ownErrors = (map: FieldErrorMap): FieldErrorMap =>
      Object.fromEntries(
        Object.entries(map)
          .filter(([field]) => field.startsWith(prefix))
          .map(([field, error]) => [field.slice(prefix.length), error]),
      );
    const checked = validateForm(fileTypesUpdateRequest, { types: list });
    if (!checked.ok) {
      setErrors(ownErrors(checked.errors));
      return null;
    }
    setBusy(true);
    setNotice(null);
    try {
      const answer = await call(api.files.updateTypes, checked.data);
      // The editor's file picker and its upload check read the same list.
      queryClient.setQueryData(apiQueryKey(api.files.types, {}), answer);
      setErrors({});
      return answer;
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) setErrors(ownErrors(toErrorMap(fields)));
      else setNotice({ kind: 'failed', message: apiErrorText(error, language) });
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!data) return;
    const list = [...data.extra.map(asInput), draftInput(draft)];
    const answer = await save(list, list.length - 1);
    if (!answer) return;
    setNotice({ kind: 'added', extension: draft.extension.trim().toLowerCase() });
    setDraft(EMPTY_DRAFT);
  }

  async function remove(extension: string) {
    if (!data) return;
    const answer = await save(data.extra.filter((type) => type.extension !== extension).map(asInput), null);
    if (answer) setNotice({ kind: 'removed', extension });
  }

  const renderList = () => {
    if (types.phase === 'error' && !data)
      return <ErrorState message={apiErrorText(types.error, language)} onRetry={types.reload} testId="file-types-load-error" />;
    if (!data) return <SkeletonBlock lines={2} />;
    if (data.extra.length === 0)
      return (
        <p className="file-types-empty" data-testid="file-types-none">
          {t('admin.fileTypes.none')}
        </p>
      );
    return (
      <ul className="file-types-list" data-testid="file-types-list">
        {data.extra.map((type) => (
          <li key={type.extension} className="file-types-item" data-testid={`file-type-${type.extension}`}>
            <span className="file-types-extension">.{type.extension}</span>
            <span className="file-types-mime">{type.mimeType}</span>
            <span className="file-types-check">
              {type.check === 'text'
                ? t('admin.fileTypes.checkText')
                : t('admin.fileTypes.checkSignatureOf', { bytes: type.signatures.join(', ') })}
            </span>
            {editable ? (
              <Button
                size="sm"
                variant="ghost"
                icon={<CloseIcon size={14} />}
                disabled={busy}
                onClick={() => void remove(type.extension)}
                aria-label={t('admin.fileTypes.remove', { extension: type.extension })}
                data-testid={`file-type-remove-${type.extension}`}
              >
                {t('admin.fileTypes.removeShort')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <section className="file-types" aria-labelledby="file-types-title" data-testid="file-types">
      <h3 className="file-types-heading" id="file-types-title">
        {t('admin.fileTypes.title')}
      </h3>
      <p className="file-types-hint">{t('admin.fileTypes.hint', { images: IMAGE_TYPES.join(', '), files: FILE_TYPES.join(', ') })}</p>
      {renderList()}
      <div aria-live="polite">
        {notice && notice.kind !== 'failed' ? (
          <InlineAlert tone="success" testId="file-types-done">
            {t(notice.kind === 'added' ? 'admin.fileTypes.added' : 'admin.fileTypes.removed', { extension: notice.extension })}
          </InlineAlert>
        ) : null}
      </div>
      {notice?.kind === 'failed' ? (
        <InlineAlert tone="error" testId="file-types-error">
          {notice.message}
        </InlineAlert>
      ) : null}
      {editable ? (
        <form className="file-types-form" onSubmit={(event) => void add(event)} noValidate data-testid="file-types-form">
          <TextField
            label={t('admin.fileTypes.extension')}
            value={draft.extension}
            onChange={(event) => setDraft({ ...draft, extension: event.target.value })}
            error={fieldText(errors, 'extension', language)}
            placeholder="csv"
            spellCheck={false}
            autoComplete="off"
            required
            testId="file-type-extension"
          />
          <TextField
            label={t('admin.fileTypes.mimeType')}
            value={draft.mimeType}
            onChange={(event) => setDraft({ ...draft, mimeType: event.target.value })}
            error={fieldText(errors, 'mimeType', language)}
            placeholder="text/csv"
            spellCheck={false}
            autoComplete="off"
            required
            testId="file-type-mime"
          />
          <SelectField
            label={t('admin.fileTypes.check')}
            value={draft.check}
            onChange={(event) => setDraft({ ...draft, check: event.target.value as FileTypeCheck })}
            testId="file-type-check"
          >
            {FILE_TYPE_CHECKS.map((check) => (
              <option key={check} value={check}>
                {t(`admin.fileTypes.checks.${check}`)}
              </option>
            ))}
          </SelectField>
          {draft.check === 'signature' ? (
            <TextField
              label={t('admin.fileTypes.signatures')}
              value={draft.signatures}
              onChange={(event) => setDraft({ ...draft, signatures: event.target.value })}
              error={signaturesError(errors, language)}
              hint={t('admin.fileTypes.signaturesHint')}
              placeholder="49 49 2A 00, 4D 4D 00 2A"
              spellCheck={false}
              autoComplete="off"
              required
              className="file-types-signatures"
              testId="file-type-signatures"
            />
          ) : (
            <p className="file-types-check-hint">{t('admin.fileTypes.textHint')}</p>
          )}
          <div className="file-types-actions">
            <Button variant="secondary" type="submit" icon={<PlusIcon size={15} />} loading={busy} data-testid="file-type-add">
              {t('admin.fileTypes.add')}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
