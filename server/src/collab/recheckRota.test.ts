import { describe, expect, it } from 'vitest';
import { RecheckRota } from './collab.js';

describe('the session recheck rota', () => {
  it('asks each connection once per walk of the interval, an even share at each step', () => {
    const steps = 60;
    const rota = new RecheckRota<{ id: number }>(steps);
    const connections = Array.from({ length: 150 }, (_, id) => ({ id }));
    const asked = new Map<number, number>();
    const shares: number[] = [];
    for (let step = 0; step < steps; step += 1) {
      const due = rota.next(connections);
      shares.push(due.length);
      for (const { id } of due) asked.set(id, (asked.get(id) ?? 0) + 1);
    }
    expect([...asked.values()]).toEqual(Array(150).fill(1));
    expect(Math.max(...shares)).toBe(Math.ceil(150 / steps));
  });

  it('keeps a connection its step, and gives one that arrives later a step of its own', () => {
    const rota = new RecheckRota<{ id: number }>(3);
    const first = { id: 1 };
    const later = { id: 2 };
    const dueAt = (connections: Array<{ id: number }>) => Array.from({ length: 6 }, () => rota.next(connections).map(({ id }) => id));
    expect(dueAt([first]).flat()).toEqual([1, 1]);
    const walks = dueAt([first, later]);
    expect(walks.flat().sort()).toEqual([1, 1, 2, 2]);
    // Never both at once: the newcomer took the next step in turn.
    expect(walks.every((due) => due.length <= 1)).toBe(true);
  });
});
