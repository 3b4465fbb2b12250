import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, DROPBOX_STATUS, PAGING, type CellDropbox } from '@eln/shared';
import { call } from '../../../api';
import { useApiQuery } from '../../../api/queries';
import { apiErrorText } from '../../../api/errors';
import { currentLanguage } from '../../../i18n';
import { Dialog } from '../../../modals/Dialog';
import { Button } from '../../../ui/Button';
import { SelectField, TextField } from '../../../ui/Field';
import { useSettledValue } from '../../../lib/useSettledValue';

/** The value select's options: nothing chosen, the row the cell keeps (no longer in the list), or a row by its place. */
const NOTHING = '';
const KEPT = 'kept';
const rowOption = (index: number) => `row:${index}`;

/** The used dropboxes whose titles contain `search` (the first page: a lab has few, the search finds the rest). */
const usedListsFilter = (search: string) => ({
  status: DROPBOX_STATUS.used,
  pageSize: PAGING.maxPageSize,
  ...(search ? { type: 'title' as const, value: search } : {}),
});

/**
 * The selected cell's dropbox (spec §5: one per cell): which used list it offers and the row chosen from
 * it. The server copies the list's title and the row's code and name into a sealed value for the cell, so
 * a later change to the list leaves the note as it was. A cell whose list is no longer used keeps it (and
 * its choice) until someone picks another or removes it.
 */
export function DropboxCellDialog({
  initial,
  onSubmit,
  onClose,
}: {
  initial: CellDropbox | null;
  onSubmit(value: CellDropbox | null): void;
  onClose(): void;
}) {
  const { t } = useTranslation('editor');
  const { t: tApp } = useTranslation();
  const [search, setSearch] = useState('');
  const settledSearch = useSettledValue(search.trim(), 250);
  const [dropboxNo, setDropboxNo] = useState<number | null>(initial?.dropboxNo ?? null);
  const [choice, setChoice] = useState<string>(initial?.code != null ? KEPT : NOTHING);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(null);
  const lists = useApiQuery(api.dropboxes.list, usedListsFilter(settledSearch));
  // Only the chosen list's rows are offered: none while another list's rows load.
  const rows = useApiQuery(api.dropboxes.detail, { dropboxNo: dropboxNo ?? 0 }, { enabled: dropboxNo !== null, keepPrevious: false });

  const offered = lists.data?.list ?? [];
  const keepsCurrent = initial?.dropboxNo != null && !offered.some((d) => d.dropboxNo === initial.dropboxNo);
  const chosenList = rows.data ?? null;
  const loadError = lists.phase === 'error' ? lists.error : rows.phase === 'error' ? rows.error : sendError;

  const rowsOffered = chosenList?.rows ?? [];
  // The row the cell holds, found again in the list (by code) so the select shows it as a normal choice.
  const keptIndex =
    initial?.code != null && dropboxNo === initial.dropboxNo ? rowsOffered.findIndex((row) => row.code === initial.code) : -1;
  const selected = choice === KEPT && keptIndex >= 0 && rowsOffered[keptIndex]?.name === initial?.name ? rowOption(keptIndex) : choice;

  /** The cell gets the server's sealed copy of the list and the chosen row, never one made here. */
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (dropboxNo === null) return onSubmit(null);
    // Untouched, the cell keeps exactly what it holds (even if the row was renamed since).
    if (choice === KEPT && initial) return onSubmit(initial);
    const row = selected.startsWith('row:') ? rowsOffered[Number(selected.slice(4))] : null;
    setSending(true);
    setSendError(null);
    try {
      onSubmit(await call(api.dropboxes.cellCopy, { dropboxNo, code: row ? row.code : null }));
    } catch (error) {
      setSendError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog title={t('dropbox.title')} onClose={onClose} testId="dropbox-dialog">
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        {initial && initial.dropboxNo === null ? <p className="field-hint">{t('dropbox.olderName', { title: initial.title })}</p> : null}
        {(lists.data?.totalCount ?? 0) > offered.length || search ? (
          <TextField
            label={t('dropbox.search')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            testId="dropbox-search"
          />
        ) : null}
        <SelectField
          label={t('dropbox.list')}
          value={dropboxNo === null ? NOTHING : String(dropboxNo)}
          onChange={(event) => {
            setDropboxNo(event.target.value === NOTHING ? null : Number(event.target.value));
            setChoice(NOTHING);
          }}
          hint={lists.phase === 'ready' && offered.length === 0 && !keepsCurrent ? t('dropbox.noneOffered') : t('dropbox.listHint')}
          testId="dropbox-list"
        >
          <option value={NOTHING}>{t('dropbox.noList')}</option>
          {keepsCurrent && initial?.dropboxNo != null ? (
            <option value={initial.dropboxNo}>{t('dropbox.notOffered', { title: initial.title })}</option>
          ) : null}
          {offered.map((d) => (
            <option key={d.dropboxNo} value={d.dropboxNo}>
              {d.title}
            </option>
          ))}
        </SelectField>
        {dropboxNo !== null ? (
          <SelectField
            label={t('dropbox.value')}
            value={selected}
            onChange={(event) => setChoice(event.target.value)}
            disabled={!chosenList}
            hint={t('dropbox.valueHint')}
            testId="dropbox-value"
          >
            <option value={NOTHING}>{t('dropbox.nothingChosen')}</option>
            {chosenList && selected === KEPT && initial?.name != null ? (
              <option value={KEPT}>{t('dropbox.keptValue', { name: initial.name, code: initial.code ?? '' })}</option>
            ) : null}
            {rowsOffered.map((row, index) => (
              <option key={index} value={rowOption(index)}>
                {row.code && row.code !== row.name ? `${row.name} (${row.code})` : row.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {loadError ? (
          <p className="field-error" role="alert">
            {apiErrorText(loadError, currentLanguage())}
          </p>
        ) : null}
        <div className="modal-footer modal-footer-inline">
          {initial ? (
            <Button variant="ghost" onClick={() => onSubmit(null)} data-testid="dropbox-clear">
              {t('dropbox.clear')}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={onClose}>
            {tApp('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={sending || (dropboxNo !== null && rows.phase === 'loading')}
            aria-busy={sending}
            data-testid="dropbox-save"
          >
            {t('dropbox.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
