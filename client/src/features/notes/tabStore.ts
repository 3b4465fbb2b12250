import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from '../../session/store';
import { parseTabs, tabsReducer, type NoteTab, type TabAction } from './tabs';

/**
 * The tab list of this browser tab, kept in sessionStorage so that a reload keeps it. Each signed-in
 * user has their own list: signing out and in as someone else never shows the previous user's notes.
 */
export const TABS_STORAGE_PREFIX = 'eln.noteTabs.';

const storageKey = (userId: string) => `${TABS_STORAGE_PREFIX}${userId}`;

function read(userId: string): NoteTab[] {
  try {
    return parseTabs(window.sessionStorage.getItem(storageKey(userId)));
  } catch {
    return [];
  }
}

let owner: string | null = null;
let tabs: NoteTab[] = [];
const listeners = new Set<() => void>();

/** The current user's tabs (read again when the signed-in user changes). */
export function getTabs(): NoteTab[] {
  const userId = getSession()?.user.userId ?? null;
  if (userId !== owner) {
    owner = userId;
    tabs = userId ? read(userId) : [];
  }
  return tabs;
}

export function dispatchTabs(action: TabAction): NoteTab[] {
  const current = getTabs();
  const next = tabsReducer(current, action);
  const same =
    next.length === current.length &&
    next.every((tab, i) => {
      const before = current[i];
      return before && before.no === tab.no && before.title === tab.title && before.active === tab.active && before.hasChange === tab.hasChange;
    });
  if (same || owner === null) return current;
  tabs = next;
  try {
    window.sessionStorage.setItem(storageKey(owner), JSON.stringify(tabs));
  } catch {
    /* storage unavailable: the tabs last for this page only */
  }
  for (const listener of listeners) listener();
  return tabs;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const stop = subscribeSession(listener);
  return () => {
    listeners.delete(listener);
    stop();
  };
}

export function useTabs(): NoteTab[] {
  return useSyncExternalStore(subscribe, getTabs);
}
