import type { ReactNode } from 'react';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  DialogTrigger,
  Group,
  Heading,
  I18nProvider,
  Popover,
} from 'react-aria-components';
import { parseDate, type CalendarDate } from '@internationalized/date';
import { currentLanguage } from '../../i18n';
import { CalendarIcon, ChevronRightIcon } from '../icons';
import './dates.css';

/*
 * The app's date fields, from React Aria: the typed field is split into year, month and day segments in
 * the interface language's order and wording (2024. 05. 01. in Korean, 2024/05/01 in Japanese), and its
 * calendar names months and weekdays in that language, whatever language the browser itself runs in. This
 * module is a chunk of its own (see DateRangeField and the editor's DateView), so no page pays for it
 * before it shows a date field.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO day (YYYY-MM-DD) as React Aria's date, or null for an empty or unreadable one. */
function toDate(iso: string | undefined): CalendarDate | null {
  if (!iso || !ISO_DATE.test(iso)) return null;
  try {
    return parseDate(iso);
  } catch {
    return null;
  }
}

/** A calendar's month: heading, previous/next buttons (labelled by React Aria in the language), the grid. */
function MonthView() {
  return (
    <>
      <header className="date-calendar-header">
        <Button slot="previous" className="date-calendar-nav">
          <ChevronRightIcon size={16} className="date-calendar-prev-icon" />
        </Button>
        <Heading className="date-calendar-title" />
        <Button slot="next" className="date-calendar-nav">
          <ChevronRightIcon size={16} />
        </Button>
      </header>
      <CalendarGrid className="date-calendar-grid">{(date) => <CalendarCell date={date} className="date-calendar-cell" />}</CalendarGrid>
    </>
  );
}

export interface DateInputFieldProps {
  /** The day as YYYY-MM-DD, or '' for none. */
  value: string;
  onChange(value: string): void;
  label: string;
  /** Days before `min` or after `max` (YYYY-MM-DD) are shown as out of range. */
  min?: string | undefined;
  max?: string | undefined;
  invalid?: boolean;
  describedBy?: string | undefined;
  testId: string;
}

/**
 * One day, typed in segments or picked in a calendar. The field's element carries `data-value` (the ISO
 * day or ''), which is what tests and styles read; an incomplete day reads as none.
 */
export function DateInputField({ value, onChange, label, min, max, invalid, describedBy, testId }: DateInputFieldProps) {
  const language = currentLanguage();
  return (
    <I18nProvider locale={language}>
      <DatePicker
        className="date-field"
        value={toDate(value)}
        onChange={(next) => onChange(next ? next.toString() : '')}
        minValue={toDate(min)}
        maxValue={toDate(max)}
        isInvalid={invalid}
        aria-label={label}
        aria-describedby={describedBy}
        granularity="day"
        shouldForceLeadingZeros
      >
        <Group className="input date-field-group" data-testid={testId} data-value={toDate(value) ? value : ''}>
          <DateInput className="date-field-input">{(segment) => <DateSegment segment={segment} className="date-segment" />}</DateInput>
          <Button className="date-field-button" data-testid={`${testId}-calendar`}>
            <CalendarIcon size={16} />
          </Button>
        </Group>
        <Popover className="date-popover" placement="bottom start">
          <Dialog className="date-dialog">
            <Calendar className="date-calendar">
              <MonthView />
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}

export interface DateButtonProps {
  value: string;
  onChange(value: string): void;
  /** The button's accessible name (it shows only an icon). */
  label: string;
  children?: ReactNode;
  testId: string;
}

/** A button that opens a calendar on `value` and answers the picked day (the editor's date block). */
export function DateButton({ value, onChange, label, children, testId }: DateButtonProps) {
  const language = currentLanguage();
  return (
    <I18nProvider locale={language}>
      <DialogTrigger>
        <Button className="date-block-button" aria-label={label} data-testid={testId}>
          {children ?? <CalendarIcon size={16} />}
        </Button>
        <Popover className="date-popover" placement="bottom start">
          <Dialog className="date-dialog" aria-label={label}>
            {({ close }) => (
              <Calendar
                className="date-calendar"
                value={toDate(value)}
                onChange={(next) => {
                  onChange(next.toString());
                  close();
                }}
                aria-label={label}
              >
                <MonthView />
              </Calendar>
            )}
          </Dialog>
        </Popover>
      </DialogTrigger>
    </I18nProvider>
  );
}
