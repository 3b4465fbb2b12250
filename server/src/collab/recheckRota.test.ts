import { describe, expect, it } from 'vitest';
import { RecheckRota } from './collab.js';

const STEPS = 60;

/** Who the rota asks at each of `count` steps, by id. */
function walk(rota: RecheckRota<{ id: number }>, connections: Array<{ id: number }>, count: number): number[][] {
  return Array.from({ length: count }, () => rota.next(connections).map(({ id }) => id));
}

describe('the session recheck rota', () => {
  it('asks no connection within half a walk of first seeing it, then each once per walk, an even share at each step', () => {
    const rota = new RecheckRota<{ id: number }>(STEPS);
    const connections = Array.from({ length: 150 }, (_, id) => ({ id }));
    expect(walk(rota, connections, STEPS / 2).flat()).toEqual([]);
    for (let round = 0; round < 2; round += 1) {
      const shares = walk(rota, connections, STEPS);
      expect(shares.flat().sort((a, b) => a - b)).toEqual(connections.map(({ id }) => id));
      expect(Math.max(...shares.map((due) => due.length))).toBe(Math.ceil(150 / STEPS));
    }
  });

  it('asks a connection no sooner than half a walk after it opens, however fast connections open', () => {
    // Counted from the first step, connections opened faster than one a step (as tests open them) took
    // steps that came at once.
    const rota = new RecheckRota<{ id: number; openedAt: number }>(STEPS);
    const opened: Array<{ id: number; openedAt: number }> = [];
    const askedAt = new Map<number, number>();
    for (let step = 1; step <= 2 * STEPS; step += 1) {
      if (step <= 10) for (let i = 0; i < 3; i += 1) opened.push({ id: opened.length, openedAt: step });
      for (const { id } of rota.next(opened)) if (!askedAt.has(id)) askedAt.set(id, step);
    }
    expect(askedAt.size).toBe(opened.length);
    for (const { id, openedAt } of opened) {
      expect(askedAt.get(id)! - openedAt).toBeGreaterThanOrEqual(STEPS / 2);
      expect(askedAt.get(id)! - openedAt).toBeLessThanOrEqual(STEPS + STEPS / 2);
    }
  });

  it('keeps a connection its step, and gives one that arrives later a step of its own', () => {
    const rota = new RecheckRota<{ id: number }>(4);
    const first = { id: 1 };
    const later = { id: 2 };
    expect(walk(rota, [first], 8).flat()).toEqual([1, 1]);
    const walks = walk(rota, [first, later], 12);
    expect(walks.flat().sort()).toEqual([1, 1, 1, 2, 2]);
    // Never both at once: the newcomer took the next step in turn.
    expect(walks.every((due) => due.length <= 1)).toBe(true);
  });
});
