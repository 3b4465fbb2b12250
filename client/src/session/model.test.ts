import { describe, expect, it } from 'vitest';
import { may, needsRefresh, parseProfile, refreshDelayMs, serializeProfile, sessionFromAnswer, sessionWithoutToken } from './model';
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

  it('shares only who is signed in: the stored profile holds no token, and reads back', () => {
    const session = sessionFromAnswer(fakeAnswer(3), NOW);
    const stored = serializeProfile(session);
    expect(stored).not.toContain('access-3');
    expect(stored).not.toContain('refresh-3');
    expect(JSON.parse(stored)).toEqual({ user: session.user, abilities: session.abilities });
    expect(parseProfile(stored)).toEqual({ user: session.user, abilities: session.abilities });
  });

  it('treats a malformed profile as signed out, and ignores what a profile should not hold', () => {
    const profile = {
      user: { userId: 'kim@lab.example', name: 'Kim', level: 1 },
      abilities: { administer: false, createProject: true },
    };
    expect(parseProfile(null)).toBeNull();
    expect(parseProfile('not json')).toBeNull();
    expect(parseProfile('[]')).toBeNull();
    expect(parseProfile(JSON.stringify({ ...profile, user: { userId: 'x' } }))).toBeNull();
    expect(parseProfile(JSON.stringify({ ...profile, accessToken: 'planted', user: { ...profile.user, level: 1, extra: true } }))).toEqual(
      profile,
    );
  });

  it('keeps a profile stored without abilities (or with unreadable ones) signed in, its abilities unknown until the server says', () => {
    const user = { userId: 'kim@lab.example', name: 'Kim', level: 10 };
    const earlier = { user, auth: { project: 'Y', schema: 'N', dropbox: 'N', template: 'N' } };
    expect(parseProfile(JSON.stringify(earlier))).toEqual({ user, abilities: null });
    expect(parseProfile(JSON.stringify({ user, abilities: { administer: 'yes' } }))).toEqual({ user, abilities: null });
    const session = sessionWithoutToken({ user, abilities: null });
    expect(may(session, 'administer')).toBe(false);
  });

  it('makes a tab without a token need a refresh at once', () => {
    const session = sessionWithoutToken({
      user: { userId: 'a@b.co', name: 'A', level: 1 },
      abilities: { administer: false, createProject: true },
    });
    expect(session.accessToken).toBe('');
    expect(needsRefresh(session, NOW)).toBe(true);
    expect(refreshDelayMs(session, NOW)).toBe(0);
  });

  it('answers what the server said the user may do, and nothing for a signed-out tab', () => {
    const session = sessionFromAnswer({ ...fakeAnswer(1), user: { userId: 'a@b.co', name: 'A', level: 10 } }, NOW);
    // The level says nothing by itself: only the abilities the server computed count.
    expect(may(session, 'administer')).toBe(false);
    expect(may(session, 'createProject')).toBe(true);
    expect(may({ abilities: { administer: true, createProject: false } }, 'administer')).toBe(true);
    expect(may(null, 'administer')).toBe(false);
  });
});
