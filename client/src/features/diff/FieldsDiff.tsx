import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { diffText, type BlockDetail, type FieldChange } from '@eln/shared';
import { TextDiff } from './TextDiff';
import type { DiffView } from './diffRows';

type FieldsDetail = Extract<BlockDetail, { kind: 'fields' }>;
type SchemaDetail = Extract<BlockDetail, { kind: 'schema' }>;

/** Stored file IDs are long and say nothing to a reader: the first characters tell two apart. */
const shown = (field: string, value: string) => (field === 'fileId' && value.length > 12 ? `${value.slice(0, 12)}…` : value);

function FieldRows({ fields, view, label }: { fields: readonly FieldChange[]; view: DiffView; label(field: string): string }) {
  const { t } = useTranslation('history');
  return (
    <>
      {fields.map(({ field, before, after }) => {
        const parts = diffText(shown(field, before), shown(field, after));
        return (
          <tr key={field} data-testid="diff-field" data-field={field}>
            <th scope="row">{label(field)}</th>
            {view === 'inline' ? (
              <td>{parts.length ? <TextDiff parts={parts} side="both" /> : t('diff.empty')}</td>
            ) : (
              <>
                <td>{before ? <TextDiff parts={parts} side="before" /> : <span className="cell-muted">{t('diff.empty')}</span>}</td>
                <td>{after ? <TextDiff parts={parts} side="after" /> : <span className="cell-muted">{t('diff.empty')}</span>}</td>
              </>
            )}
          </tr>
        );
      })}
    </>
  );
}

function FieldTable({ view, children, caption }: { view: DiffView; children: ReactNode; caption?: string }) {
  const { t } = useTranslation('history');
  return (
    <table className="diff-fields">
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          <th scope="col">{t('diff.field')}</th>
          {view === 'inline' ? (
            <th scope="col">{`${t('diff.before')} → ${t('diff.after')}`}</th>
          ) : (
            <>
              <th scope="col">{t('diff.before')}</th>
              <th scope="col">{t('diff.after')}</th>
            </>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A chart's, image's, file's or date's fields that changed (type, names, range, content), before and after. */
export function FieldsDiff({ detail, view }: { detail: FieldsDetail | SchemaDetail; view: DiffView }) {
  const { t, i18n } = useTranslation('history');
  // A field this screen has no name for (a newer server's) shows as itself.
  const label = (field: string) =>
    i18n.exists(`diff.fields.${field}`, { ns: 'history' }) ? t(`diff.fields.${field}` as 'diff.fields.name') : field;
  const entries: FieldChange[] =
    detail.kind === 'schema' ? detail.entries.map((e) => ({ field: e.field, before: e.before ?? '', after: e.after ?? '' })) : [];
  return (
    <div className="diff-fields-wrap" data-testid="diff-fields">
      {detail.fields.length ? (
        <FieldTable view={view}>
          <FieldRows fields={detail.fields} view={view} label={label} />
        </FieldTable>
      ) : null}
      {entries.length ? (
        <FieldTable view={view} caption={t('diff.entries')}>
          <FieldRows fields={entries} view={view} label={(field) => field} />
        </FieldTable>
      ) : null}
    </div>
  );
}
