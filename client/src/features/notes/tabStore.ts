import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession } from '../../session/store';
import { parseTabs, tabsReducer, type NoteTab, type TabAction } from './tabs';

/**
 * A list of editor tabs for this browser tab, kept in sessionStorage so that a reload keeps it. Each
 * signed-in user has their own list: signing out and in as someone else never shows the previous user's
 * tabs. Lab notes and templates each keep one (`eln.noteTabs.`, `eln.templateTabs.`).
 */
export interface TabStore {
  getTabs(): NoteTab[];
  dispatchTabs(action: TabAction): NoteTab[];
  useTabs(): NoteTab[];
}

export function createTabStore(storagePrefix: string): TabStore {
  const storageKey = (userId: string) => `${storagePrefix}${userId}`;
  const read = (userId: string): NoteTab[] => {
    try {
      return parseTabs(window.sessionStorage.getItem(storageKey(userId)));
    } catch {
      return [];
    }
  };
  let owner: string | null = null;
  let tabs: NoteTab[] = [];
  const listeners = new Set<() => void>();

  /** The current user's tabs (read again when the signed-in user changes). */
  const getTabs = (): NoteTab[] => {
    const userId = getSession()?.user.userId ?? null;
    if (userId !== owner) {
      owner = userId;
      tabs = userId ? read(userId) : [];
    }
    return tabs;
  };

  const dispatchTabs = (action: TabAction): NoteTab[] => {
    const current = getTabs();
    const next = tabsReducer(current, action);
    const same =
      next.length === current.length &&
      next.every((tab, i) => {
        const before = current[i];
        return (
          before && before.no === tab.no && before.title === tab.title && before.active === tab.active && before.hasChange === tab.hasChange
        );
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
  };

  const subscribe = (listener: () => void): (() => void) => {
    listeners.add(listener);
    const stop = subscribeSession(listener);
    return () => {
      listeners.delete(listener);
      stop();
    };
  };

  return { getTabs, dispatchTabs, useTabs: () => useSyncExternalStore(subscribe, getTabs) };
}

/** The lab notes' tabs. */
export const { getTabs, dispatchTabs, useTabs } = createTabStore('eln.noteTabs.');
