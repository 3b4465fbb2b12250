import { describe, expect, it } from 'vitest';
import { isAdmin, needsRefresh, parseSession, refreshDelayMs, serializeSession, sessionFromAnswer } from './model';
import { fakeAnswer } from './testing';

const NOW = 1_700_000_000_000;

describe('session model', () => {
  it('computes the expiry from expiresIn, counted from when the answer arrived', () => {
    const session = sessionFromAnswer(fakeAnswer(1, 900), NOW);
    expect(session.expiresAt).toBe(NOW + 900_000);
    expect(session.user.name).toBe('Kim Jiwoo');
  });

  it('needs a refresh 30 s before expiry, and after it', () => {
    const session = { expiresAt: NOW + 60_000 };
    expect(needsRefresh(session, NOW)).toBe(false);
    expect(needsRefresh(session, NOW + 29_999)).toBe(false);
    expect(needsRefresh(session, NOW + 30_000)).toBe(true);
    expect(needsRefresh(session, NOW + 120_000)).toBe(true);
  });

  it('schedules the proactive refresh 30 s early, never in the past', () => {
    expect(refreshDelayMs({ expiresAt: NOW + 900_000 }, NOW)).toBe(870_000);
    expect(refreshDelayMs({ expiresAt: NOW + 10_000 }, NOW)).toBe(0);
  });

  it('refreshes a short-lived token a quarter of its life early, so it never refreshes in a loop', () => {
    const short = sessionFromAnswer(fakeAnswer(1, 20), NOW);
    expect(short.refreshEarlyMs).toBe(5_000);
    expect(refreshDelayMs(short, NOW)).toBe(15_000);
    expect(needsRefresh(short, NOW + 14_999)).toBe(false);
    expect(needsRefresh(short, NOW + 15_000)).toBe(true);
    expect(sessionFromAnswer(fakeAnswer(1, 900), NOW).refreshEarlyMs).toBe(30_000);
  });

  it('reads back what it stores, and treats anything malformed as signed out', () => {
    const session = sessionFromAnswer(fakeAnswer(3), NOW);
    expect(parseSession(serializeSession(session))).toEqual(session);
    expect(parseSession(null)).toBeNull();
    expect(parseSession('not json')).toBeNull();
    expect(parseSession('[]')).toBeNull();
    expect(parseSession(JSON.stringify({ ...session, accessToken: '' }))).toBeNull();
    expect(parseSession(JSON.stringify({ ...session, auth: { project: 'maybe' } }))).toBeNull();
    expect(parseSession(JSON.stringify({ ...session, user: { userId: 'x' } }))).toBeNull();
    // A session stored before refreshEarlyMs existed still reads, with the default margin.
    const { refreshEarlyMs: _early, ...older } = session;
    expect(parseSession(JSON.stringify(older))).toEqual(older);
  });

  it('knows level 10 as administrator', () => {
    expect(isAdmin({ level: 10 })).toBe(true);
    expect(isAdmin({ level: 1 })).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});
