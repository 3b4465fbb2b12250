import { describe, expect, it } from 'vitest';
import { chosenSides, historySearch, readHistoryParams } from './historyParams';

const read = (query: string) => readHistoryParams(new URLSearchParams(query));

describe('the history screen URL', () => {
  it('reads the two sides, the view and the folding, refusing what is not a version', () => {
    expect(read('from=2&to=live&view=inline&all=1&authors=1')).toEqual({
      from: 2,
      to: 'live',
      view: 'inline',
      onlyChanges: false,
      authors: true,
    });
    const defaults = { from: null, to: null, view: 'side', onlyChanges: true, authors: false };
    expect(read('from=0&to=-3&view=diagonal&authors=yes')).toEqual(defaults);
    expect(read('from=1e3&to=02')).toEqual(defaults);
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(historySearch({ from: null, to: null, view: 'side', onlyChanges: true, authors: false })).toBe('');
    const chosen = { from: 3, to: 'live', view: 'inline', onlyChanges: false, authors: true } as const;
    expect(historySearch(chosen)).toBe('?from=3&to=live&view=inline&all=1&authors=1');
    expect(read(historySearch(chosen).slice(1))).toEqual(chosen);
  });
});

describe('the sides compared', () => {
  const none = read('');

  it('are the newest version and the one before it when the URL names none', () => {
    expect(chosenSides(none, 5)).toEqual({ from: 4, to: 5 });
  });

  it('are the only version and the live draft for a note saved once, and nothing for one never saved', () => {
    expect(chosenSides(none, 1)).toEqual({ from: 1, to: 'live' });
    expect(chosenSides(none, 0)).toBeNull();
  });

  it('follow the URL, in either order, but not to versions the note does not have', () => {
    expect(chosenSides(read('from=4&to=2'), 5)).toEqual({ from: 4, to: 2 });
    expect(chosenSides(read('from=2&to=live'), 5)).toEqual({ from: 2, to: 'live' });
    expect(chosenSides(read('to=live'), 5)).toEqual({ from: 5, to: 'live' });
    expect(chosenSides(read('from=9&to=3'), 5)).toEqual({ from: 2, to: 3 });
    expect(chosenSides(read('from=2&to=9'), 5)).toEqual({ from: 2, to: 5 });
  });
});
