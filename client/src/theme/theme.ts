import { useSyncExternalStore } from 'react';
import { THEMES, type Theme } from '@eln/shared';
import { onStorageChange, readStorage, STORAGE_KEYS, writeStorage } from '../lib/storage';

export const DEFAULT_THEME: Theme = 's';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function otherTheme(theme: Theme): Theme {
  return theme === 's' ? 'b' : 's';
}

let current: Theme = readStoredTheme();
const listeners = new Set<() => void>();

function readStoredTheme(): Theme {
  const stored = readStorage(STORAGE_KEYS.theme);
  return isTheme(stored) ? stored : DEFAULT_THEME;
}

/** Puts the theme on `<html data-theme>`, where the CSS variables of src/styles pick it up. */
export function applyTheme(theme: Theme = current): void {
  document.documentElement.dataset.theme = theme;
}

export function getTheme(): Theme {
  return current;
}

export function setTheme(theme: Theme): void {
  current = theme;
  writeStorage(STORAGE_KEYS.theme, theme);
  applyTheme(theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const stop = onStorageChange(STORAGE_KEYS.theme, () => {
    current = readStoredTheme();
    applyTheme(current);
    listener();
  });
  return () => {
    listeners.delete(listener);
    stop();
  };
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme);
}
