import { describe, expect, it } from 'vitest';
import { colorFor, connectionState, OFFLINE_AFTER_MS, otherWriters, PRESENCE_COLORS } from './presence';
import { activeTab, MAX_TABS, parseNoteNo, parseTabs, tabsReducer, type NoteTab } from './tabs';

const tab = (no: number, active = false, title = `Note ${no}`, hasChange = false): NoteTab => ({ no, title, active, hasChange });

describe('note tabs', () => {
  it('opening a note adds its tab and activates it; opening it again only activates it', () => {
    let tabs = tabsReducer([], { type: 'open', no: 1, title: 'Buffer' });
    expect(tabs).toEqual([tab(1, true, 'Buffer')]);
    tabs = tabsReducer(tabs, { type: 'open', no: 2 });
    expect(tabs.map((t) => [t.no, t.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    tabs = tabsReducer(tabs, { type: 'open', no: 1 });
    expect(tabs.map((t) => [t.no, t.active])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(tabs[0]?.title).toBe('Buffer');
  });

  it('closing the active tab activates the last one left; closing another keeps the active one', () => {
    const tabs = [tab(1), tab(2, true), tab(3)];
    expect(activeTab(tabsReducer(tabs, { type: 'close', no: 2 }))?.no).toBe(3);
    expect(activeTab(tabsReducer(tabs, { type: 'close', no: 3 }))?.no).toBe(2);
    expect(activeTab(tabsReducer([tab(1), tab(2), tab(3, true)], { type: 'close', no: 3 }))?.no).toBe(2);
  });

  it('closing the last tab leaves none, so the editor area is cleared', () => {
    const tabs = tabsReducer([tab(7, true)], { type: 'close', no: 7 });
    expect(tabs).toEqual([]);
    expect(activeTab(tabs)).toBeNull();
  });

  it('keeps titles and the unsaved dot', () => {
    let tabs = [tab(1, true, '')];
    tabs = tabsReducer(tabs, { type: 'title', no: 1, title: 'Kinetics' });
    tabs = tabsReducer(tabs, { type: 'change', no: 1, hasChange: true });
    expect(tabs).toEqual([tab(1, true, 'Kinetics', true)]);
  });

  it('drops the oldest inactive tab past the limit', () => {
    let tabs: NoteTab[] = [];
    for (let no = 1; no <= MAX_TABS + 2; no += 1) tabs = tabsReducer(tabs, { type: 'open', no });
    expect(tabs).toHaveLength(MAX_TABS);
    expect(tabs[0]?.no).toBe(3);
    expect(activeTab(tabs)?.no).toBe(MAX_TABS + 2);
  });

  it('reads a stored list defensively: malformed entries and duplicates go, one tab at most is active', () => {
    const raw = JSON.stringify([tab(1, true), { no: 'x' }, tab(1), tab(2, true, 'B', true), null, { no: -3 }]);
    expect(parseTabs(raw)).toEqual([tab(1, true), tab(2, false, 'B', true)]);
    expect(parseTabs('not json')).toEqual([]);
    expect(parseTabs(null)).toEqual([]);
  });

  it('parses note numbers from the route', () => {
    expect(parseNoteNo('42')).toBe(42);
    expect(parseNoteNo('0')).toBeNull();
    expect(parseNoteNo('4a')).toBeNull();
    expect(parseNoteNo(undefined)).toBeNull();
  });
});

describe('presence', () => {
  it('lists the other writers once each, not this user, not read-only viewers', () => {
    const states: Array<[number, unknown]> = [
      [1, { user: { userId: 'me@x', name: 'Me', color: '#111111' }, mode: 'write' }],
      [2, { user: { userId: 'lee@x', name: 'Lee', color: '#222222' }, mode: 'write' }],
      [3, { user: { userId: 'lee@x', name: 'Lee', color: '#222222' }, mode: 'write' }],
      [4, { user: { userId: 'me@x', name: 'Me' }, mode: 'write' }],
      [5, { user: { userId: 'viewer@x', name: 'Viewer' }, mode: 'read' }],
      [6, { user: { userId: 'ahn@x', name: 'Ahn' }, mode: 'write' }],
      [7, {}],
    ];
    expect(otherWriters(states, 1, 'me@x')).toEqual([
      { userId: 'ahn@x', name: 'Ahn', color: colorFor('ahn@x') },
      { userId: 'lee@x', name: 'Lee', color: '#222222' },
    ]);
  });

  it('has colours behind which an avatar’s white initials read at 4.5:1 or more', () => {
    const channel = (value: number) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4);
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((at) => channel(parseInt(hex.slice(at, at + 2), 16) / 255));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const againstWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);
    expect(PRESENCE_COLORS.filter((color) => againstWhite(color) < 4.5)).toEqual([]);
  });

  it('gives each user a stable colour from the palette', () => {
    expect(colorFor('a@x')).toBe(colorFor('a@x'));
    expect(PRESENCE_COLORS).toContain(colorFor('someone@lab.example'));
  });

  it('tells connecting, connected, reconnecting and offline apart', () => {
    const base = { live: false, everLive: false, online: true, downSince: 0, now: 100 };
    expect(connectionState(base)).toBe('connecting');
    expect(connectionState({ ...base, live: true })).toBe('connected');
    expect(connectionState({ ...base, everLive: true })).toBe('reconnecting');
    expect(connectionState({ ...base, everLive: true, now: OFFLINE_AFTER_MS })).toBe('offline');
    expect(connectionState({ ...base, online: false })).toBe('offline');
  });
});
