import { DateInput, DateSegment, I18nProvider, Label, Text, TimeField } from 'react-aria-components';
import { Time } from '@internationalized/date';
import { currentLanguage } from '../../i18n';
import '../../ui/dates/dates.css';

const TIME = /^(\d{2}):(\d{2})$/;

function toTime(value: string): Time | null {
  const match = TIME.exec(value);
  return match ? new Time(Number(match[1]), Number(match[2])) : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time of day as HH:MM on a 24-hour clock, typed in its hour and minute segments (React Aria), in the interface's language. */
export function DigestTimeField({
  value,
  onChange,
  label,
  hint,
}: {
  value: string;
  onChange(value: string): void;
  label: string;
  hint: string;
}) {
  return (
    <I18nProvider locale={currentLanguage()}>
      <TimeField
        className="field digest-time"
        value={toTime(value)}
        onChange={(next) => {
          if (next) onChange(`${pad(next.hour)}:${pad(next.minute)}`);
        }}
        hourCycle={24}
        granularity="minute"
        shouldForceLeadingZeros
      >
        <Label className="field-label">{label}</Label>
        <DateInput
          className="input date-field-group date-field-input digest-time-input"
          data-testid="account-digest-time"
          data-value={value}
        >
          {(segment) => <DateSegment segment={segment} className="date-segment" />}
        </DateInput>
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      </TimeField>
    </I18nProvider>
  );
}
