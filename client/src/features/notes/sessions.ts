import { dispatchTabs } from './tabStore';
import { NoteSession, type SessionUser } from './noteSession';

/**
 * The open notes of this browser tab: one live session per note tab, created when the tab is first
 * shown and kept while the tab stays open (its hold and its "changed" dot stay current in the
 * background). Each session keeps its tab's title and dot up to date.
 */
const sessions = new Map<number, { session: NoteSession; stop: () => void }>();
let pendingRelease: ReturnType<typeof setTimeout> | null = null;
/** Counts sessions replaced by a fresh one (`reopenSession`), so that the workspace renders the new one. */
let reopened = 0;
const reopenListeners = new Set<() => void>();

export const sessionsReopened = (): number => reopened;
export function subscribeReopened(listener: () => void): () => void {
  reopenListeners.add(listener);
  return () => reopenListeners.delete(listener);
}

export function sessionFor(noteNo: number, user: SessionUser): NoteSession {
  const existing = sessions.get(noteNo);
  if (existing && existing.session.user.userId === user.userId) return existing.session;
  if (existing) void closeSession(noteNo);
  const session = new NoteSession(noteNo, user);
  const stop = session.subscribe(() => {
    const { note, hasChange, phase } = session.getState();
    if (note) dispatchTabs({ type: 'title', no: noteNo, title: note.title });
    if (phase === 'ready') dispatchTabs({ type: 'change', no: noteNo, hasChange });
  });
  sessions.set(noteNo, { session, stop });
  return session;
}

/**
 * Replaces a note's session with a fresh one (a new Y.Doc, synced from what the server stored): after
 * the server refused one of its edits, the old document can never sync again. Its hold ended with its
 * connection, so it is destroyed without a `/clear`.
 */
export function reopenSession(noteNo: number): NoteSession | null {
  const entry = sessions.get(noteNo);
  if (!entry) return null;
  sessions.delete(noteNo);
  entry.stop();
  entry.session.destroy();
  const session = sessionFor(noteNo, entry.session.user);
  reopened += 1;
  for (const listener of reopenListeners) listener();
  return session;
}

export function existingSession(noteNo: number): NoteSession | null {
  return sessions.get(noteNo)?.session ?? null;
}

export function openSessions(): NoteSession[] {
  return [...sessions.values()].map((entry) => entry.session);
}

/** Releases a note (edits stored, hold cleared, connection closed) and forgets its session. */
export async function closeSession(noteNo: number): Promise<void> {
  const entry = sessions.get(noteNo);
  if (!entry) return;
  sessions.delete(noteNo);
  entry.stop();
  await entry.session.release();
}

/**
 * The workspace left the screen: release every note shortly after (a remount in the meantime, as in
 * React's development double mount, cancels it).
 */
export function scheduleReleaseAll(delayMs = 300): void {
  cancelReleaseAll();
  pendingRelease = setTimeout(() => {
    pendingRelease = null;
    for (const noteNo of [...sessions.keys()]) void closeSession(noteNo);
  }, delayMs);
}

export function cancelReleaseAll(): void {
  if (pendingRelease) clearTimeout(pendingRelease);
  pendingRelease = null;
}

/** Whether some open note has edits not yet confirmed stored (the page should not be closed now). */
export function anyUnstored(): boolean {
  return openSessions().some((session) => !session.isDestroyed && !session.isDurable());
}
