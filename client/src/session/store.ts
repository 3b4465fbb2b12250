import { useSyncExternalStore } from 'react';
import type { SessionAbilities } from '@eln/shared';
import { styleGuideSamples } from '../lib/styleGuide';
import { LEGACY_SESSION_KEY, onStorageChange, readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import { parseProfile, serializeProfile, sessionWithoutToken, type Profile, type Session } from './model';

/**
 * The session store. localStorage (`eln.profile`) says who is signed in, so every tab signs in and out
 * together; the access token is this tab's own, in memory, and is kept only while the profile names the
 * same user (a sign-out or another user's sign-in in another tab drops it). The snapshot is cached per
 * stored string and token so that React gets a stable value.
 */
let cachedRaw: string | null = null;
let cachedProfile: Profile | null = null;
/** This tab's access token and its expiry, for the user it was issued to. */
let tokens: Session | null = null;
let cachedSession: Session | null = null;
let cachedFrom: { profile: Profile | null; tokens: Session | null } = { profile: null, tokens: null };
/** Set when the server refused the session; the session-ended modal shows until it is acknowledged. */
let ended = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/* Sessions before the refresh cookie kept both tokens here: they are dropped unread. */
writeStorage(LEGACY_SESSION_KEY, null);

function readProfile(): Profile | null {
  const raw = readStorage(STORAGE_KEYS.profile);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedProfile = parseProfile(raw);
  }
  return cachedProfile;
}

/** The current session: the shared profile with this tab's token, or without one (it then needs a refresh). */
export function getSession(): Session | null {
  const samples = styleGuideSamples();
  if (samples) return samples.session;
  const profile = readProfile();
  if (!profile || (tokens && tokens.user.userId !== profile.user.userId)) tokens = null;
  if (cachedFrom.profile !== profile || cachedFrom.tokens !== tokens) {
    cachedFrom = { profile, tokens };
    cachedSession = profile ? { ...(tokens ?? sessionWithoutToken(profile)), user: profile.user, abilities: profile.abilities } : null;
  }
  return cachedSession;
}

export function setSession(session: Session): void {
  // The style guide's sample user is never stored (nor is the real one touched from there).
  if (styleGuideSamples()) return;
  tokens = session;
  writeStorage(STORAGE_KEYS.profile, serializeProfile(session));
  ended = false;
  notify();
}

export function clearSession(): void {
  if (styleGuideSamples()) return;
  tokens = null;
  writeStorage(STORAGE_KEYS.profile, null);
  ended = false;
  notify();
}

/** Replaces what the user of the stored session may do, if still signed in. */
export function updateAbilities(abilities: SessionAbilities): void {
  const current = getSession();
  if (!current) return;
  const same =
    current.abilities !== null &&
    (Object.keys(abilities) as Array<keyof SessionAbilities>).every((key) => current.abilities?.[key] === abilities[key]);
  if (!same) setSession({ ...current, abilities });
}

export function markSessionEnded(): void {
  if (ended || !getSession()) return;
  ended = true;
  notify();
}

export function isSessionEnded(): boolean {
  return ended;
}

let stopWatching: (() => void) | null = null;

/** Subscribes to changes made here and, through the storage event, in other tabs. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  stopWatching ??= onStorageChange(STORAGE_KEYS.profile, notify);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      stopWatching?.();
      stopWatching = null;
    }
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession);
}

export function useSessionEnded(): boolean {
  return useSyncExternalStore(subscribeSession, isSessionEnded);
}
