/**
 * Presence on a live note: each client's awareness carries `user: { userId, name, color }` and `mode`
 * ('write' or 'read'). The note header lists the other writers; carets use the same colour.
 */
export interface PresenceUser {
  userId: string;
  name: string;
  color: string;
}

/**
 * Caret colours that read on white and on the beauty theme's pastel canvas alike, and behind an avatar's
 * white initials at 4.5:1 or more (WCAG 1.4.3: the initials are small text).
 */
export const PRESENCE_COLORS = [
  '#2563eb',
  '#db2777',
  '#047857',
  '#b45309',
  '#7c3aed',
  '#dc2626',
  '#0e7490',
  '#4d7c0f',
  '#c026d3',
  '#0f766e',
] as const;

/** A stable colour for a user (the same in every tab and on every machine). */
export function colorFor(userId: string): string {
  let hash = 0;
  for (let i = 0; i < userId.length; i += 1) hash = (hash * 31 + userId.charCodeAt(i)) | 0;
  return PRESENCE_COLORS[Math.abs(hash) % PRESENCE_COLORS.length] ?? PRESENCE_COLORS[0];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The other people writing the note now, from awareness states: this client and this user's own other
 * tabs are left out, read-only viewers too, and each person appears once.
 */
export function otherWriters(states: Iterable<[number, unknown]>, selfClientId: number, selfUserId: string): PresenceUser[] {
  const byUser = new Map<string, PresenceUser>();
  for (const [clientId, state] of states) {
    if (clientId === selfClientId || !isRecord(state)) continue;
    if (state.mode !== 'write') continue;
    const user = state.user;
    if (!isRecord(user) || typeof user.userId !== 'string' || typeof user.name !== 'string') continue;
    if (user.userId === selfUserId || byUser.has(user.userId)) continue;
    byUser.set(user.userId, {
      userId: user.userId,
      name: user.name,
      color: typeof user.color === 'string' ? user.color : colorFor(user.userId),
    });
  }
  return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Whether two lists of writers show the same people (so the header need not change). */
export function sameWriters(a: readonly PresenceUser[], b: readonly PresenceUser[]): boolean {
  return a.length === b.length && a.every((w, i) => w.userId === b[i]?.userId && w.name === b[i]?.name && w.color === b[i]?.color);
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface ConnectionFacts {
  /** The websocket is open and the server accepted this document's authentication. */
  live: boolean;
  /** The note has been live at least once since it was opened. */
  everLive: boolean;
  /** navigator.onLine */
  online: boolean;
  /** When the note stopped being live (ms), or null. */
  downSince: number | null;
  now: number;
}

/** After this long without a connection, "reconnecting" becomes "offline". */
export const OFFLINE_AFTER_MS = 4000;

export function connectionState(facts: ConnectionFacts): ConnectionState {
  if (facts.live) return 'connected';
  if (!facts.online) return 'offline';
  if (!facts.everLive) return 'connecting';
  if (facts.downSince !== null && facts.now - facts.downSince >= OFFLINE_AFTER_MS) return 'offline';
  return 'reconnecting';
}
