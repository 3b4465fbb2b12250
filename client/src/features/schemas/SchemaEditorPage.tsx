import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useLocation, useNavigate, useParams } from 'react-router-dom';
import {
  api,
  ERR,
  errorMessage,
  LIMITS,
  schemaCreateRequest,
  schemaUpdateRequest,
  type FieldError,
  type SchemaThumbnail,
  type SchemaTypeDetail,
} from '@eln/shared';
import { call, fieldErrorsOf } from '../../api';
import { useApiQuery } from '../../api/queries';
import { apiErrorText, isApiError } from '../../api/errors';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { fieldText, focusFirstInvalid, toErrorMap, validateForm, type Checked, type FieldErrorMap } from '../../lib/forms';
import { alert, confirm } from '../../modals/store';
import { Button, ButtonLink } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { ArrowLeftIcon, LockIcon, PencilIcon, PlusIcon, SchemaIcon } from '../../ui/icons';
import { InlineAlert } from '../../ui/InlineAlert';
import { EmptyState, PageFrame } from '../../ui/PageFrame';
import { ErrorState } from '../../ui/States';
import { EntriesGrid } from './EntriesGrid';
import { ArrowDownIcon, ArrowUpIcon, TrashIcon } from './icons';
import {
  draftOf,
  emptySchema,
  emptyType,
  moveItem,
  placeError,
  toCreateRequest,
  toUpdateRequest,
  type SchemaDraft,
  type TypeDraft,
} from './schemaDraft';
import { SchemaStatusBadge } from './SchemaStatus';
import { SchemaThumb } from './SchemaThumb';
import { thumbnailsOf, type ThumbnailKey } from './thumbnail';
import { ThumbnailDialog, type ThumbnailTarget } from './ThumbnailDialog';
import './schemas.css';

type Notice = { tone: 'success' | 'error' | 'info'; text: string } | null;

/** `/schema/create` and `/schema/{id}`: a schema type, its schemas and their entries, saved all at once. */
export function SchemaEditorPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const navigate = useNavigate();
  const id = useParams().id;
  const schemasTypeNo = id ? Number(id) : null;
  // The form starts from what the server has now: never from another type's detail, nor from one cached
  // earlier (a fresher answer arriving later would start the form again, losing what was typed).
  const detail = useApiQuery(
    api.schemas.detail,
    { schemasTypeNo: schemasTypeNo ?? 0 },
    { enabled: Boolean(schemasTypeNo), keepPrevious: false, gcTime: 0 },
  );
  // The create page asks the list whether the caller may create types.
  const abilities = useApiQuery(api.schemas.list, { pageSize: 1 }, { enabled: !schemasTypeNo });

  // Spec §8: a schema that cannot be opened says the server's message and goes back to the list.
  useEffect(() => {
    if (detail.phase === 'error' && isApiError(detail.error) && detail.error.status === ERR.schemaCheck) {
      void alert(apiErrorText(detail.error, language)).then(() => navigate('/schema', { replace: true }));
    }
  }, [detail.phase, detail.error, language, navigate]);

  const loaded = detail.data;
  const created = (useLocation().state as { created?: boolean } | null)?.created === true;
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const forbidden = schemasTypeNo === null && abilities.data ? !abilities.data.abilities.create : false;
  return (
    <PageFrame
      testId={schemasTypeNo ? 'page-schema-detail' : 'page-schema-create'}
      title={loaded?.title ?? (schemasTypeNo ? t('pages.schemaDetail.title') : t('pages.schemaCreate.title'))}
      description={schemasTypeNo ? t('pages.schemaDetail.description') : t('pages.schemaCreate.description')}
      icon={<SchemaIcon size={20} />}
      actions={
        <ButtonLink to="/schema" variant="ghost" icon={<ArrowLeftIcon size={16} />}>
          {t('schema.backToList')}
        </ButtonLink>
      }
    >
      {detail.phase === 'error' && !(isApiError(detail.error) && detail.error.status === ERR.schemaCheck) ? (
        <ErrorState message={apiErrorText(detail.error, language)} onRetry={detail.reload} testId="schema-load-error" />
      ) : null}
      {forbidden ? (
        <div className="card" data-testid="schema-create-forbidden">
          <EmptyState icon={<LockIcon size={26} />} title={t('schema.noPermissionTitle')}>
            <p>{t('schema.noPermissionBody')}</p>
          </EmptyState>
        </div>
      ) : null}
      {loaded ? (
        <p className="dropbox-meta" data-testid="schema-meta">
          <SchemaStatusBadge status={loaded.status} />
          <span>{t('schema.schemaCount', { count: loaded.schemaCount })}</span>
          <span>{t('schema.updated', { when: formatDateTime(loaded.updatedAt, language), who: loaded.updatedByName ?? '—' })}</span>
        </p>
      ) : null}
      {created || savedAt !== null ? (
        <InlineAlert tone="success" testId="schema-saved">
          {savedAt !== null ? t('schema.saved') : t('schema.created')}
        </InlineAlert>
      ) : null}
      {schemasTypeNo === null && abilities.data && !forbidden ? (
        <SchemaForm
          key="new"
          initial={null}
          onSaved={(no) => void navigate(`/schema/${no}`, { replace: true, state: { created: true } })}
        />
      ) : null}
      {loaded ? (
        <SchemaForm
          key={`${loaded.schemasTypeNo}:${loaded.revision}`}
          initial={loaded}
          onSaved={() => {
            setSavedAt(Date.now());
            detail.reload();
          }}
        />
      ) : null}
    </PageFrame>
  );
}

/**
 * The draft checked with the request schema the server uses (an update of the loaded type, or a new one)
 * and, when it passes, the save, which answers the type's number.
 */
function checkedSave(draft: TypeDraft, initial: SchemaTypeDetail | null): Checked<() => Promise<number>> {
  if (initial) {
    const update = validateForm(schemaUpdateRequest, toUpdateRequest(draft, initial.schemasTypeNo, initial.revision));
    if (!update.ok) return update;
    const save = async () => {
      await call(api.schemas.update, update.data);
      return initial.schemasTypeNo;
    };
    return { ok: true, data: save };
  }
  const create = validateForm(schemaCreateRequest, toCreateRequest(draft));
  if (!create.ok) return create;
  return { ok: true, data: async () => (await call(api.schemas.create, create.data)).schemasTypeNo };
}

interface SchemaFormProps {
  initial: SchemaTypeDetail | null;
  onSaved(schemasTypeNo: number): void;
}

function SchemaForm({ initial, onSaved }: SchemaFormProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const readOnly = initial !== null && !initial.abilities.update;
  const [start] = useState<TypeDraft>(() => (initial ? draftOf(initial) : { ...emptyType(), schemas: [emptySchema()] }));
  const [draft, setDraft] = useState<TypeDraft>(start);
  const [selected, setSelected] = useState(0);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Thumbnails are set apart from the form (display only, no revision): each change applies at once.
  const [thumbnails, setThumbnails] = useState(() => (initial ? thumbnailsOf(initial) : new Map<ThumbnailKey, SchemaThumbnail | null>()));
  const [thumbnailFor, setThumbnailFor] = useState<ThumbnailTarget | null>(null);
  const schema = draft.schemas[selected] ?? null;
  const dirty = !readOnly && JSON.stringify(toCreateRequest(draft)) !== JSON.stringify(toCreateRequest(start));
  const saved = useRef(false);
  // A save that leaves the page (or remounts the form) frees leaving; any later change guards it again.
  useEffect(() => {
    saved.current = false;
  }, [draft]);
  useLeaveGuard(dirty, saved);

  const placed = useMemo(
    () => Object.values(errors).flatMap((error) => (error ? [{ error, at: placeError(draft, error) }] : [])),
    [errors, draft],
  );
  const typeError = (field: string) => errors[field]?.message ?? fieldText(errors, field, language);
  const schemaErrors = (index: number) => placed.filter((p) => p.at.schema === index);
  const entryErrors = useMemo(() => {
    const map = new Map<number, { field: string; message: string }>();
    for (const { error, at } of placed)
      if (at.schema === selected && at.entryKey !== null && !map.has(at.entryKey))
        map.set(at.entryKey, { field: at.field, message: error.message ?? fieldText(errors, error.field, language) ?? '' });
    return map;
  }, [placed, selected, errors, language]);
  const selectedError = (field: string) => {
    const found = schemaErrors(selected).find((p) => p.at.entryKey === null && p.at.field === field);
    return found ? (found.error.message ?? fieldText(errors, found.error.field, language)) : undefined;
  };

  const setType = (patch: Partial<TypeDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setSchema = (index: number, patch: Partial<SchemaDraft>) =>
    setDraft((current) => ({ ...current, schemas: current.schemas.map((each, i) => (i === index ? { ...each, ...patch } : each)) }));
  const addSchema = () => {
    if (draft.schemas.length >= LIMITS.schemas) return;
    setDraft((current) => ({ ...current, schemas: [...current.schemas, emptySchema()] }));
    setSelected(draft.schemas.length);
  };
  const removeSchema = (index: number) => {
    setDraft((current) => ({ ...current, schemas: current.schemas.filter((_, i) => i !== index) }));
    setSelected((current) => Math.max(0, current >= index ? current - 1 : current));
  };
  const moveSchema = (index: number, to: number) => {
    setDraft((current) => ({ ...current, schemas: moveItem(current.schemas, index, to) }));
    if (selected === index) setSelected(to);
  };

  const thumbnailChanged = (thumbnail: SchemaThumbnail | null) => {
    if (!thumbnailFor) return;
    const key = thumbnailFor.schemaNo ?? 'type';
    setThumbnails((current) => new Map(current).set(key, thumbnail));
    setThumbnailFor(null);
    setNotice({ tone: 'success', text: thumbnail ? t('schema.thumbnail.applied') : t('schema.thumbnail.removed') });
  };
  /**
   * The thumbnail of the type (`schemaNo` null) or of a schema, with its button to change it: for a saved
   * type and a saved schema (a new one is given a thumbnail once saved); read-only callers only see it.
   */
  const thumbnailControl = (schemaNo: number | null, isType: boolean, name: string, testId: string) => {
    const current = thumbnails.get(schemaNo ?? 'type') ?? null;
    const canChange = initial !== null && (isType || schemaNo !== null);
    if (readOnly && !current) return null;
    return (
      <div className="schema-thumb-row" data-testid={testId}>
        <SchemaThumb thumbnail={current} name={name} size="lg" testId={`${testId}-image`} />
        {readOnly ? null : canChange ? (
          <Button
            size="sm"
            icon={<PencilIcon size={15} />}
            onClick={() => setThumbnailFor({ schemasTypeNo: initial.schemasTypeNo, schemaNo, name, current })}
            aria-label={t('schema.thumbnail.changeOf', { name })}
            data-testid={`${testId}-change`}
          >
            {t('schema.thumbnail.change')}
          </Button>
        ) : (
          <p className="field-hint">{t('schema.thumbnail.saveFirst')}</p>
        )}
      </div>
    );
  };

  /** Shows refusals beside their fields and opens the first schema that has one. */
  const showErrors = (list: readonly FieldError[]) => {
    setErrors(toErrorMap(list));
    const first = list.map((error) => placeError(draft, error)).find((at) => at.schema !== null);
    if (first?.schema !== undefined && first.schema !== null) setSelected(first.schema);
    setNotice({ tone: 'error', text: t('schema.fixMarked') });
    focusFirstInvalid(formRef.current);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy || readOnly) return;
    setNotice(null);
    const checked = checkedSave(draft, initial);
    if (!checked.ok) {
      showErrors(Object.values(checked.errors).flatMap((error) => (error ? [error] : [])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const schemasTypeNo = await checked.data();
      saved.current = true;
      onSaved(schemasTypeNo);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) showErrors(fields);
      else if (isApiError(error) && error.status === ERR.schemaCodeDuplicate)
        setErrors({ code: { field: 'code', reason: 'invalidValue', message: errorMessage(ERR.schemaCodeDuplicate, language) } });
      else if (isApiError(error) && error.status === ERR.schemaTitleDuplicate)
        setErrors({ title: { field: 'title', reason: 'invalidValue', message: errorMessage(ERR.schemaTitleDuplicate, language) } });
      else setNotice({ tone: 'error', text: apiErrorText(error, language) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="form schema-form" onSubmit={(event) => void save(event)} noValidate data-testid="schema-form">
      {readOnly ? (
        <InlineAlert tone="info" testId="schema-readonly">
          {t('schema.readOnly')}
        </InlineAlert>
      ) : null}
      <section className="card form-card" aria-labelledby="schema-type-heading">
        <h2 className="form-section-title" id="schema-type-heading">
          {t('schema.typeHeading')}
        </h2>
        {thumbnailControl(null, true, initial?.title ?? (draft.title.trim() || t('schema.typeHeading')), 'schema-type-thumbnail')}
        <div className="form-grid form-grid-2">
          <TextField
            label={t('schema.fields.code')}
            value={draft.code}
            readOnly={readOnly}
            required
            maxLength={LIMITS.schemaCode}
            counter={{ length: draft.code.length, max: LIMITS.schemaCode }}
            error={typeError('code')}
            onChange={(e) => setType({ code: e.target.value })}
            testId="schema-code"
            autoComplete="off"
          />
          <TextField
            label={t('schema.fields.title')}
            value={draft.title}
            readOnly={readOnly}
            required
            maxLength={LIMITS.schemaTypeName}
            counter={{ length: draft.title.length, max: LIMITS.schemaTypeName }}
            error={typeError('title')}
            onChange={(e) => setType({ title: e.target.value })}
            testId="schema-title"
            autoComplete="off"
          />
        </div>
        <TextAreaField
          label={t('schema.fields.description')}
          value={draft.description}
          readOnly={readOnly}
          rows={2}
          maxLength={LIMITS.schemaDescription}
          counter={{ length: draft.description.length, max: LIMITS.schemaDescription }}
          error={typeError('description')}
          onChange={(e) => setType({ description: e.target.value })}
          testId="schema-description"
        />
        <SelectField
          label={t('schema.fields.status')}
          value={draft.status}
          disabled={readOnly}
          onChange={(e) => setType({ status: e.target.value === 'N' ? 'N' : 'Y' })}
          testId="schema-status-select"
        >
          <option value="Y">{t('schema.status.used')}</option>
          <option value="N">{t('schema.status.unused')}</option>
        </SelectField>
      </section>

      <section className="card form-card schema-children" aria-labelledby="schema-children-heading">
        <h2 className="form-section-title" id="schema-children-heading">
          {t('schema.childrenHeading', { count: draft.schemas.length, max: LIMITS.schemas })}
        </h2>
        {typeError('schemas') ? (
          <p className="field-error" role="alert" data-testid="schema-children-error">
            {typeError('schemas')}
          </p>
        ) : null}
        <div className="schema-split">
          <nav className="schema-list" aria-label={t('schema.childrenList')}>
            <ol>
              {draft.schemas.map((each, index) => (
                <li key={each.key} className={index === selected ? 'is-selected' : undefined}>
                  <button
                    type="button"
                    className={`schema-list-item${schemaErrors(index).length ? ' has-error' : ''}`}
                    onClick={() => setSelected(index)}
                    aria-current={index === selected ? 'true' : undefined}
                    data-testid={`schema-child-${index}`}
                  >
                    <SchemaThumb
                      thumbnail={each.schemaNo ? (thumbnails.get(each.schemaNo) ?? null) : null}
                      name={each.title}
                      size="sm"
                      decorative
                    />
                    <span className="schema-list-text">
                      <span className="schema-list-title">{each.title.trim() || t('schema.untitled')}</span>
                      <span className="schema-list-sub">
                        {t('schema.entryCount', { count: each.entries.filter((e) => e.field.trim() || e.value.trim()).length })}
                        {each.status === 'N' ? ` · ${t('schema.status.unused')}` : ''}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ol>
            {readOnly ? null : (
              <Button
                size="sm"
                icon={<PlusIcon size={15} />}
                onClick={addSchema}
                disabled={draft.schemas.length >= LIMITS.schemas}
                data-testid="schema-child-add"
              >
                {t('schema.addChild')}
              </Button>
            )}
          </nav>
          {schema ? (
            <div className="schema-child" data-testid="schema-child-editor">
              <div className="schema-child-head">
                <h3 className="schema-child-title">{schema.title.trim() || t('schema.untitled')}</h3>
                {readOnly ? null : (
                  <div className="schema-child-actions">
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      disabled={selected === 0}
                      onClick={() => moveSchema(selected, selected - 1)}
                      aria-label={t('schema.moveUp')}
                      title={t('schema.moveUp')}
                    >
                      <ArrowUpIcon size={15} />
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      disabled={selected === draft.schemas.length - 1}
                      onClick={() => moveSchema(selected, selected + 1)}
                      aria-label={t('schema.moveDown')}
                      title={t('schema.moveDown')}
                    >
                      <ArrowDownIcon size={15} />
                    </button>
                    <button
                      type="button"
                      className="icon-btn icon-btn-sm"
                      onClick={() => removeSchema(selected)}
                      aria-label={t('schema.removeChild')}
                      title={t('schema.removeChild')}
                      data-testid="schema-child-remove"
                    >
                      <TrashIcon size={15} />
                    </button>
                  </div>
                )}
              </div>
              {thumbnailControl(schema.schemaNo ?? null, false, schema.title.trim() || t('schema.untitled'), 'schema-child-thumbnail')}
              <div className="form-grid form-grid-2">
                <TextField
                  label={t('schema.fields.childTitle')}
                  value={schema.title}
                  readOnly={readOnly}
                  required
                  maxLength={LIMITS.schemaName}
                  counter={{ length: schema.title.length, max: LIMITS.schemaName }}
                  error={selectedError('title')}
                  onChange={(e) => setSchema(selected, { title: e.target.value })}
                  testId="schema-child-title"
                  autoComplete="off"
                />
                <SelectField
                  label={t('schema.fields.status')}
                  value={schema.status}
                  disabled={readOnly}
                  onChange={(e) => setSchema(selected, { status: e.target.value === 'N' ? 'N' : 'Y' })}
                  testId="schema-child-status"
                >
                  <option value="Y">{t('schema.status.used')}</option>
                  <option value="N">{t('schema.status.unused')}</option>
                </SelectField>
              </div>
              <TextAreaField
                label={t('schema.fields.description')}
                value={schema.description}
                readOnly={readOnly}
                rows={2}
                maxLength={LIMITS.schemaDescription}
                error={selectedError('description')}
                onChange={(e) => setSchema(selected, { description: e.target.value })}
                testId="schema-child-description"
              />
              {selectedError('entries') ? (
                <p className="field-error" role="alert" data-testid="schema-entries-error">
                  {selectedError('entries')}
                </p>
              ) : null}
              <EntriesGrid
                entries={schema.entries}
                readOnly={readOnly}
                errors={entryErrors}
                onChange={(entries) => setSchema(selected, { entries })}
                onNotice={(text) => setNotice({ tone: 'info', text })}
              />
            </div>
          ) : (
            <p className="schema-none" data-testid="schema-child-none">
              {t('schema.noChildren')}
            </p>
          )}
        </div>
      </section>

      {notice ? (
        <InlineAlert tone={notice.tone} testId="schema-notice">
          {notice.text}
        </InlineAlert>
      ) : null}
      {readOnly ? null : (
        <div className="form-actions">
          <Button
            variant="ghost"
            disabled={!dirty || busy}
            onClick={() =>
              void confirm(t('schema.discardChanges')).then((discard) => {
                if (!discard) return;
                setDraft(start);
                setErrors({});
                setNotice(null);
                setSelected(0);
              })
            }
            data-testid="schema-discard"
          >
            {t('schema.discard')}
          </Button>
          <Button variant="primary" type="submit" loading={busy} disabled={initial !== null && !dirty} data-testid="schema-submit">
            {initial ? t('schema.save') : t('schema.createSubmit')}
          </Button>
        </div>
      )}
      {thumbnailFor ? <ThumbnailDialog target={thumbnailFor} onClose={() => setThumbnailFor(null)} onChanged={thumbnailChanged} /> : null}
    </form>
  );
}

/**
 * Unsaved changes are not lost by accident: leaving for another page asks first, and closing or
 * reloading the browser tab asks the browser to warn. Once saved (`saved`), leaving is free.
 */
function useLeaveGuard(dirty: boolean, saved: { current: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !saved.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm(t('schema.leaveUnsaved')).then((leave) => (leave ? blocker.proceed() : blocker.reset()));
  }, [blocker, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!saved.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, saved]);
}
