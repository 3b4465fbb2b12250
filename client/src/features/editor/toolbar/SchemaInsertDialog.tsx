import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type SchemaBlockAttrs } from '@eln/shared';
import { useApiQuery } from '../../../api/queries';
import { apiErrorText } from '../../../api/errors';
import { currentLanguage } from '../../../i18n';
import { Dialog } from '../../../modals/Dialog';
import { Button } from '../../../ui/Button';
import { SelectField } from '../../../ui/Field';
import { SchemaEntriesTable } from '../views/SchemaBlockView';

const NONE = '';

/**
 * Inserts a schema block: pick a schema type (`/all`: the used ones), then one of its schemas the server
 * lets notes copy, see the server's sealed copy of its entries, insert exactly that. The block keeps this
 * copy whatever later happens to the schema.
 */
export function SchemaInsertDialog({ onSubmit, onClose }: { onSubmit(block: SchemaBlockAttrs): void; onClose(): void }) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [typeNo, setTypeNo] = useState<number | null>(null);
  const [schemaNo, setSchemaNo] = useState<number | null>(null);
  const types = useApiQuery(api.schemas.usedTypes, {});
  // What is shown belongs to the type and schema chosen: nothing while another one's loads.
  const schemas = useApiQuery(api.schemas.childList, { schemasTypeNo: typeNo ?? 0 }, { enabled: typeNo !== null, keepPrevious: false });
  const preview = useApiQuery(api.schemas.blockCopy, { schemaNo: schemaNo ?? 0 }, { enabled: schemaNo !== null, keepPrevious: false });

  const offeredTypes = types.data?.list ?? [];
  const offeredSchemas = (schemas.data?.list ?? []).filter((schema) => schema.copyable);
  const chosen = schemaNo !== null && preview.phase === 'ready' ? preview.data : null;
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
