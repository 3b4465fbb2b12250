import { useSyncExternalStore } from 'react';
import { apiErrorText } from '../api/errors';
import { currentLanguage } from '../i18n';

export type MessageTone = 'info' | 'success' | 'error';

export interface MessageOptions {
  title?: string;
  tone?: MessageTone;
  /** Label of the confirming button. */
  okLabel?: string;
}

export interface MessageEntry extends MessageOptions {
  id: number;
  kind: 'alert' | 'confirm';
  message: string;
  resolve(answer: boolean): void;
}

interface ModalState {
  messages: readonly MessageEntry[];
  /** 0-100 while the loading overlay shows, else null. */
  progress: number | null;
}

let state: ModalState = { messages: [], progress: null };
let nextId = 1;
const listeners = new Set<() => void>();

function update(next: Partial<ModalState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function open(kind: MessageEntry['kind'], message: string, options: MessageOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    update({ messages: [...state.messages, { ...options, id: nextId++, kind, message, resolve }] });
  });
}

/** Shows a message; resolves when it is closed. Messages queue, one at a time. */
export function alert(message: string, options: MessageOptions = {}): Promise<void> {
  return open('alert', message, options).then(() => undefined);
}

/** Asks a yes/no question; resolves to true only when confirmed. */
export function confirm(message: string, options: MessageOptions = {}): Promise<boolean> {
  return open('confirm', message, options);
}

/** Closes the message `id` with `answer` (an alert's answer does not matter). */
export function settleMessage(id: number, answer: boolean): void {
  const entry = state.messages.find((message) => message.id === id);
  if (!entry) return;
  update({ messages: state.messages.filter((message) => message.id !== id) });
  entry.resolve(answer);
}

/** Shows the loading overlay at `percent` (clamped to 0-100). */
export function showProgress(percent: number): void {
  const value = Number.isFinite(percent) ? Math.round(Math.min(100, Math.max(0, percent))) : 0;
  if (value !== state.progress) update({ progress: value });
}

export function hideProgress(): void {
  if (state.progress !== null) update({ progress: null });
}

/** Route change: every open message closes (a question counts as declined) and the overlay hides. */
export function dismissAll(): void {
  const open = state.messages;
  if (open.length === 0 && state.progress === null) return;
  update({ messages: [], progress: null });
  for (const entry of open) entry.resolve(false);
}

/** Shows a failed call's localised message from the shared catalogue. */
export function alertApiError(error: unknown): Promise<void> {
  return alert(apiErrorText(error, currentLanguage()), { tone: 'error' });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useModalState(): ModalState {
  return useSyncExternalStore(subscribe, () => state);
}
