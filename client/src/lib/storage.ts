/** Every localStorage key the client uses, in one place. */
export const STORAGE_KEYS = {
  /** Who is signed in (no tokens): session/store.ts. */
  profile: 'eln.profile',
  language: 'eln.language',
  theme: 'eln.theme',
  /** The zone the signed-in person chose (My account), as last read from the server. */
  timeZone: 'eln.timeZone',
  savedUserId: 'eln.savedUserId',
} as const;

/** Where sessions were kept, tokens included, before the refresh cookie; removed at start. */
export const LEGACY_SESSION_KEY = 'eln.session';

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS] | typeof LEGACY_SESSION_KEY;

/* localStorage can throw (private windows, storage disabled, quota); the notebook keeps working without it. */

export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}

/** Calls `listener` when another tab changes `key`. Returns the unsubscribe function. */
export function onStorageChange(key: StorageKey, listener: () => void): () => void {
  const handler = (event: StorageEvent) => {
    if (event.key === key || event.key === null) listener();
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
