import { useSyncExternalStore } from 'react';
import type { AuthFlags } from '@eln/shared';
import { onStorageChange, readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';
import { parseSession, serializeSession, type Session } from './model';

/**
 * The session store. localStorage (`eln.session`) is the source of truth, so that every tab sees the
 * tokens another tab rotated; the parsed value is cached per stored string to give React a stable snapshot.
 */
let cachedRaw: string | null = null;
let cachedSession: Session | null = null;
/** Set when the server refused the session; the session-ended modal shows until it is acknowledged. */
let ended = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** The current session, read afresh from storage. */
export function getSession(): Session | null {
  const raw = readStorage(STORAGE_KEYS.session);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedSession = parseSession(raw);
  }
  return cachedSession;
}

export function setSession(session: Session): void {
  writeStorage(STORAGE_KEYS.session, serializeSession(session));
  ended = false;
  notify();
}

export function clearSession(): void {
  writeStorage(STORAGE_KEYS.session, null);
  ended = false;
  notify();
}

/** Replaces the auth flags of the stored session, if still signed in. */
export function updateAuthFlags(auth: AuthFlags): void {
  const current = getSession();
  if (!current) return;
  const same = (Object.keys(auth) as Array<keyof AuthFlags>).every((key) => current.auth[key] === auth[key]);
  if (!same) setSession({ ...current, auth });
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
  stopWatching ??= onStorageChange(STORAGE_KEYS.session, notify);
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
