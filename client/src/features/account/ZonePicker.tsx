import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { browserTimeZone } from '../../lib/timeZone';
import { ChevronDownIcon } from '../../ui/icons';
import '../../ui/dates/dates.css';
import { browserZones, zoneMatches, zoneOptions, type ZoneOption } from './settingsForms';

/** The list's entry for "this browser's own zone" (no choice stored). */
const BROWSER = 'browser';

interface ZonePickerProps {
  /** The chosen IANA zone, null for the browser's own. */
  value: string | null;
  onChange(zone: string | null): void;
  label: string;
  hint: string;
  error?: string | undefined;
}

/**
 * A searchable list of the time zones this browser knows (`Intl.supportedValuesOf`), each with its offset
 * now, and first "this browser's own". Typed text filters the list (a city, a region, in any case); arrow
 * keys and Enter pick, Escape leaves the choice as it was.
 */
export function ZonePicker({ value, onChange, label, hint, error }: ZonePickerProps) {
  const { t } = useTranslation();
  const [now] = useState(() => new Date());
  const options = useMemo<ZoneOption[]>(
    () => [
      { id: BROWSER, text: t('account.display.browserZone', { zone: browserTimeZone() }) },
      ...zoneOptions(browserZones(), now, value),
    ],
    [t, now, value],
  );
  return (
    <ComboBox
      className={error ? 'field zone-picker field-invalid' : 'field zone-picker'}
      defaultItems={options}
      selectedKey={value ?? BROWSER}
      onSelectionChange={(key) => {
        if (key !== null) onChange(key === BROWSER ? null : String(key));
      }}
      defaultFilter={zoneMatches}
      menuTrigger="focus"
      isInvalid={Boolean(error)}
      data-testid="account-zone"
    >
      <Label className="field-label">{label}</Label>
      <div className="zone-control">
        <Input className="input zone-input" placeholder={t('account.display.zoneSearch')} data-testid="account-zone-input" />
        <Button className="date-field-button zone-toggle" aria-label={t('account.display.showZones')}>
          <ChevronDownIcon size={16} />
        </Button>
      </div>
      {error ? (
        <Text slot="errorMessage" className="field-error">
          {error}
        </Text>
      ) : (
        <Text slot="description" className="field-hint">
          {hint}
        </Text>
      )}
      <Popover className="zone-popover" placement="bottom start" shouldFlip={false}>
        <ListBox<ZoneOption> className="zone-list" renderEmptyState={() => <p className="zone-empty">{t('account.display.noZone')}</p>}>
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.text} className="zone-option" data-testid={`zone-option-${option.id}`}>
              {option.text}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
