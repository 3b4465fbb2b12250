import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '@eln/shared';
import { actionTone, groupedActions, groupOf, isKnownTargetType } from './labels';
import { formatAuditTime, zoneLabel } from './time';

describe('action groups and tones', () => {
  it('puts every action in exactly one group, keeping their order', () => {
    const grouped = groupedActions();
    expect(grouped.flatMap((entry) => entry.actions).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(grouped.map((entry) => entry.group)).toEqual(['user', 'department', 'project', 'note', 'file', 'signature', 'audit', 'system']);
    expect(groupOf('signature.signed')).toBe('signature');
  });

  it('colours failures red, removals amber and signatures green', () => {
    expect(actionTone('user.signInFailed')).toBe('danger');
    expect(actionTone('signature.failed')).toBe('danger');
    expect(actionTone('signature.removed')).toBe('warning');
    expect(actionTone('signature.signed')).toBe('success');
    expect(actionTone('user.signIn')).toBe('neutral');
    expect(actionTone('something.new')).toBe('neutral');
  });

  it('knows the target types it has labels for', () => {
    expect(isKnownTargetType('project')).toBe(true);
    expect(isKnownTargetType('spaceship')).toBe(false);
    expect(isKnownTargetType(null)).toBe(false);
  });
});

describe('audit times', () => {
  it('shows the instant in the given zone, 24-hour, with the zone named', () => {
    expect(formatAuditTime('2026-11-22T15:04:05.123Z', 'Asia/Seoul')).toEqual({
      date: '2026-11-23',
      time: '00:04:05',
      zone: 'UTC+09:00',
      zoneName: 'Asia/Seoul',
      utc: '2026-11-22T15:04:05.123Z',
    });
    expect(formatAuditTime('2026-01-05T08:00:00Z', 'America/New_York')).toMatchObject({ date: '2026-01-05', time: '03:00:00', zone: 'UTC-05:00' });
    expect(formatAuditTime('2026-07-05T08:00:00Z', 'UTC')).toMatchObject({ time: '08:00:00', zone: 'UTC+00:00' });
  });

  it('refuses what is not a time', () => {
    expect(formatAuditTime('yesterday')).toBeNull();
  });

  it('writes offsets as UTC±hh:mm', () => {
    expect(zoneLabel('GMT+09:00')).toBe('UTC+09:00');
    expect(zoneLabel('GMT-03:30')).toBe('UTC-03:30');
    expect(zoneLabel('GMT')).toBe('UTC+00:00');
  });
});
