import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';
import { browserTimeZone, setChosenTimeZone, viewerTimeZone, zonedDay } from './timeZone';

/** ICU versions differ in the space before AM/PM (U+202F or U+0020). */
const spaced = (text: string) => text.replace(/\s/gu, ' ');

describe('the screens’ time zone', () => {
  afterEach(() => setChosenTimeZone(null));

  it('is the zone chosen on My account, else the browser’s, and never a zone this browser does not know', () => {
    expect(viewerTimeZone()).toBe(browserTimeZone());
    setChosenTimeZone('America/New_York');
    expect(viewerTimeZone()).toBe('America/New_York');
    setChosenTimeZone('Mars/Olympus');
    expect(viewerTimeZone()).toBe(browserTimeZone());
  });

  it('is what dates and times are shown in; a calendar day stays that day in every zone', () => {
    const moment = '2026-03-01T03:30:00Z';
    setChosenTimeZone('America/New_York');
    expect(spaced(formatDateTime(moment, 'en'))).toBe('Feb 28, 2026, 10:30 PM');
    expect(formatDate(moment, 'en')).toBe('Feb 28, 2026');
    expect(formatDate('2026-03-01', 'en')).toBe('Mar 1, 2026');
    expect(zonedDay(new Date(moment))).toEqual({ iso: '2026-02-28', hour: 22 });
    setChosenTimeZone('Asia/Seoul');
    expect(spaced(formatDateTime(moment, 'en'))).toBe('Mar 1, 2026, 12:30 PM');
    expect(formatDate('2026-03-01', 'en')).toBe('Mar 1, 2026');
    expect(zonedDay(new Date(moment))).toEqual({ iso: '2026-03-01', hour: 12 });
  });
});
