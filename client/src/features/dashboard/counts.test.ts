import { describe, expect, it } from 'vitest';
import { parseLicenceAnswer } from '../../layout/licence';
import { greetingFor, parseCounts } from './counts';

describe('dashboard counts', () => {
  it('keeps numbers and shows null (not built yet), missing or odd values as unknown', () => {
    expect(parseCounts({ ongoing: 3, closable: null, closed: '2', templates: 'x', schemas: 0 })).toEqual({
      ongoing: 3,
      closable: null,
      closed: 2,
      templates: null,
      schemas: 0,
      dropboxes: null,
    });
    expect(parseCounts(null).ongoing).toBeNull();
  });

  it('greets by the time of day', () => {
    expect(greetingFor(8)).toBe('morning');
    expect(greetingFor(13)).toBe('afternoon');
    expect(greetingFor(21)).toBe('evening');
    expect(greetingFor(2)).toBe('evening');
  });
});

describe('licence answer', () => {
  it('reads a registered licence', () => {
    const answer = parseLicenceAnswer({
      licence: { companyName: 'Lab Co.', serialNumber: 'ELN-1', seats: '50', expiresAt: '2027-01-01T00:00:00Z', updatedAt: '' },
      activeUsers: 12,
    });
    expect(answer.licence).toMatchObject({ companyName: 'Lab Co.', serialNumber: 'ELN-1', seats: 50 });
    expect(answer.activeUsers).toBe(12);
  });

  it('treats no licence or an unusable answer as none', () => {
    expect(parseLicenceAnswer({ licence: null, activeUsers: 3 }).licence).toBeNull();
    expect(parseLicenceAnswer('nonsense').licence).toBeNull();
    expect(parseLicenceAnswer({ licence: { companyName: 1 } }).licence).toBeNull();
  });
});
