import { useTranslation } from 'react-i18next';
import { NodeViewWrapper, type NodeViewProps } from '@tiptap/react';
import { useEditable } from './useEditable';
import { formatIsoDate } from '@eln/shared';
import { currentLanguage } from '../../../i18n';
import { CalendarIcon } from '../../../ui/icons';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date block (YYYY-MM-DD), shown in the interface language; writers can change the day. */
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
        <input
          type="date"
          className="note-date-input"
          value={ISO_DATE.test(value) ? value : ''}
          aria-label={t('date.change')}
          title={t('date.change')}
          onChange={(event) => {
            if (ISO_DATE.test(event.target.value)) updateAttributes({ value: event.target.value });
          }}
        />
      ) : null}
    </NodeViewWrapper>
  );
}
