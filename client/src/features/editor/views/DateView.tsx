import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEditable } from './useEditable';
import { formatIsoDate } from '@eln/shared';
import { currentLanguage } from '../../../i18n';
import { CalendarIcon } from '../../../ui/icons';

/** The calendar (React Aria) is a chunk of its own: opening a note does not fetch it until a date block shows. */
const DateButton = lazy(() => import('../../../ui/dates/DatePickers').then((m) => ({ default: m.DateButton })));

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date block (YYYY-MM-DD), shown in the interface language; writers pick another day in a calendar in that language. */
export function DateView({ node, editor, selected, updateAttributes }: NodeViewProps) {
  const editable = useEditable(editor);
  const { t } = useTranslation('editor');
  const value = typeof node.attrs.value === 'string' ? node.attrs.value : '';
  return (
    <NodeViewWrapper className={`note-date${selected ? ' is-selected' : ''}`} data-testid="date-block" contentEditable={false}>
      <CalendarIcon size={16} className="note-date-icon" />
      <time dateTime={value} className="note-date-text" data-testid="date-value">
        {formatIsoDate(value, currentLanguage())}
      </time>
      {editable ? (
        <Suspense fallback={null}>
          <DateButton
            value={ISO_DATE.test(value) ? value : ''}
            label={t('date.change')}
            onChange={(picked) => {
              if (ISO_DATE.test(picked)) updateAttributes({ value: picked });
            }}
            testId="date-change"
          />
        </Suspense>
      ) : null}
    </NodeViewWrapper>
  );
}
