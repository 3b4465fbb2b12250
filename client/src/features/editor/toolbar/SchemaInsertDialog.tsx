import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SCHEMA_STATUS, type SchemaBasic, type SchemaBlockAttrs, type SchemaChild, type SchemaTypeSummary } from '@eln/shared';
import { call } from '../../../api';
import { apiErrorText } from '../../../api/errors';
import { currentLanguage } from '../../../i18n';
import { useLoad } from '../../../lib/useLoad';
import { Dialog } from '../../../modals/Dialog';
import { Button } from '../../../ui/Button';
import { SelectField } from '../../../ui/Field';
import { blockFromSchema } from '../schemaBlocks';
import { SchemaEntriesTable } from '../views/SchemaBlockView';

const NONE = '';
const used = <T extends { status: 'Y' | 'N' }>(items: readonly T[]) => items.filter((item) => item.status === SCHEMA_STATUS.used);

/**
 * Inserts a schema block: pick a used schema type, then one of its used schemas, see the entries that will
 * be copied, insert. The block keeps this copy whatever later happens to the schema.
 */
export function SchemaInsertDialog({ onSubmit, onClose }: { onSubmit(block: SchemaBlockAttrs): void; onClose(): void }) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [typeNo, setTypeNo] = useState<number | null>(null);
  const [schemaNo, setSchemaNo] = useState<number | null>(null);
  const types = useLoad((signal) => call<{ list: SchemaTypeSummary[] }>('/v1/schema/all', {}, { signal }), 'types');
  const schemas = useLoad(
    (signal) => (typeNo === null ? Promise.resolve(null) : call<{ list: SchemaBasic[] }>('/v1/schema/basic/all', { schemasTypeNo: typeNo }, { signal })),
    String(typeNo),
  );
  const preview = useLoad((signal) => (schemaNo === null ? Promise.resolve(null) : call<SchemaChild>('/v1/schema/attr/all', { schemaNo }, { signal })), String(schemaNo));

  const offeredTypes = used(types.data?.list ?? []);
  const offeredSchemas = used(schemas.data?.list ?? []);
  const type = offeredTypes.find((item) => item.schemasTypeNo === typeNo);
  const chosen = schemaNo !== null && preview.phase === 'ready' && preview.data && type ? blockFromSchema(preview.data, type.title) : null;
  const failed = [types, schemas, preview].find((load) => load.phase === 'error');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen) onSubmit(chosen);
  };
  const number = (value: string) => (value === NONE ? null : Number(value));

  return (
    <Dialog title={t('schema.dialogTitle')} onClose={onClose} testId="schema-dialog" size="lg">
      <form className="form" onSubmit={submit} noValidate>
        <div className="form-grid form-grid-2">
          <SelectField
            label={t('schema.type')}
            value={typeNo ?? NONE}
            onChange={(event) => {
              setTypeNo(number(event.target.value));
              setSchemaNo(null);
            }}
            hint={types.phase === 'ready' && offeredTypes.length === 0 ? t('schema.noTypes') : undefined}
            testId="schema-type"
          >
            <option value={NONE}>{t('schema.chooseType')}</option>
            {offeredTypes.map((item) => (
              <option key={item.schemasTypeNo} value={item.schemasTypeNo}>
                {item.title} ({item.code})
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('schema.schema')}
            value={schemaNo ?? NONE}
            onChange={(event) => setSchemaNo(number(event.target.value))}
            disabled={typeNo === null || schemas.phase !== 'ready'}
            hint={typeNo !== null && schemas.phase === 'ready' && offeredSchemas.length === 0 ? t('schema.noSchemas') : undefined}
            testId="schema-schema"
          >
            <option value={NONE}>{t('schema.chooseSchema')}</option>
            {offeredSchemas.map((item) => (
              <option key={item.schemaNo} value={item.schemaNo}>
                {item.title}
              </option>
            ))}
          </SelectField>
        </div>
        {chosen ? (
          <div className="note-schema-preview" data-testid="schema-preview">
            <p className="field-hint">{t('schema.previewHint', { revision: chosen.revision })}</p>
            <SchemaEntriesTable entries={chosen.entries} caption={`${chosen.typeTitle} › ${chosen.title}`} />
          </div>
        ) : null}
        {failed ? (
          <p className="field-error" role="alert">
            {apiErrorText(failed.error, currentLanguage())}
          </p>
        ) : null}
        <div className="modal-footer modal-footer-inline">
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" disabled={!chosen} data-testid="schema-insert">
            {t('schema.insert')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
