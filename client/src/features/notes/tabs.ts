/**
 * The editor's tabs (spec: no, title, active, hasChange). Opening a note adds or activates its tab;
 * closing a tab activates the last one left; no tabs left means no note is open. Pure, so that the
 * rules are tested without a browser; the store keeps the list in sessionStorage (per browser tab).
 */
export interface NoteTab {
  no: number;
  title: string;
  active: boolean;
  hasChange: boolean;
}

export type TabAction =
  | { type: 'open'; no: number; title?: string }
  | { type: 'close'; no: number }
  | { type: 'title'; no: number; title: string }
  | { type: 'change'; no: number; hasChange: boolean };

/** More tabs than this and the oldest inactive one is dropped. */
export const MAX_TABS = 12;

export function tabsReducer(tabs: readonly NoteTab[], action: TabAction): NoteTab[] {
  switch (action.type) {
    case 'open': {
      const existing = tabs.find((tab) => tab.no === action.no);
      if (existing) {
        if (existing.active && (!action.title || action.title === existing.title)) return [...tabs];
        return tabs.map((tab) => ({
          ...tab,
          active: tab.no === action.no,
          title: tab.no === action.no && action.title ? action.title : tab.title,
        }));
      }
      let next = [
        ...tabs.map((tab) => ({ ...tab, active: false })),
        { no: action.no, title: action.title ?? '', active: true, hasChange: false },
      ];
      while (next.length > MAX_TABS) {
        const drop = next.findIndex((tab) => !tab.active);
        if (drop < 0) break;
        next = next.filter((_, index) => index !== drop);
      }
      return next;
    }
    case 'close': {
      const closing = tabs.find((tab) => tab.no === action.no);
      if (!closing) return [...tabs];
      const rest = tabs.filter((tab) => tab.no !== action.no);
      if (!closing.active || rest.some((tab) => tab.active)) return rest;
      // The closed tab was the active one: the last tab left becomes active.
      return rest.map((tab, index) => ({ ...tab, active: index === rest.length - 1 }));
    }
    case 'title':
      return tabs.map((tab) => (tab.no === action.no ? { ...tab, title: action.title } : tab));
    case 'change':
      return tabs.map((tab) => (tab.no === action.no ? { ...tab, hasChange: action.hasChange } : tab));
  }
}

export function activeTab(tabs: readonly NoteTab[]): NoteTab | null {
  return tabs.find((tab) => tab.active) ?? null;
}

/** Reads a stored list; anything malformed is dropped, and at most one tab stays active. */
export function parseTabs(raw: string | null): NoteTab[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<number>();
  const tabs: NoteTab[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const { no, title, active, hasChange } = item as Record<string, unknown>;
    if (typeof no !== 'number' || !Number.isSafeInteger(no) || no <= 0 || seen.has(no)) continue;
    seen.add(no);
    tabs.push({ no, title: typeof title === 'string' ? title : '', active: active === true, hasChange: hasChange === true });
  }
  let activeSeen = false;
  return tabs.map((tab) => {
    const active = tab.active && !activeSeen;
    if (active) activeSeen = true;
    return { ...tab, active };
  });
}

/** The note number of `/note/:id` or `/editor/:id`, or null. */
export function parseNoteNo(id: string | undefined): number | null {
  if (!id || !/^\d{1,15}$/.test(id)) return null;
  const no = Number(id);
  return Number.isSafeInteger(no) && no > 0 ? no : null;
}
