import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DurableClocks } from './durableClocks.js';

/** One writer's successive updates, each one typed character. */
function typedUpdates(count: number): { clientID: number; updates: Uint8Array[] } {
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  for (let i = 0; i < count; i += 1) doc.getText('t').insert(i, 'x');
  return { clientID: doc.clientID, updates };
}

describe('DurableClocks', () => {
  it('never lets a later stored update hide a lost earlier one', () => {
    const { clientID, updates } = typedUpdates(3);
    const clocks = new DurableClocks();
    clocks.stored(updates[0]!);
    clocks.stored(updates[2]!);
    // The second update was lost: only the first counts as saved.
    expect(clocks.entries().get(clientID)).toBe(1);
    expect(clocks.covers(updates[2]!)).toBe(false);
    clocks.stored(updates[1]!);
    expect(clocks.entries().get(clientID)).toBe(3);
    expect(clocks.covers(updates[2]!)).toBe(true);
  });

  it('starts from the contiguous part of a loaded state and reports its clock gap', () => {
    const { clientID, updates } = typedUpdates(3);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.mergeUpdates([updates[0]!, updates[2]!]));
    expect(DurableClocks.ofLoaded(doc).entries().get(clientID)).toBe(1);
    expect(DurableClocks.gapIn(doc)).toEqual({ appliedUpTo: { [clientID]: 1 }, pendingClients: [clientID] });

    const whole = new Y.Doc();
    Y.applyUpdate(whole, Y.mergeUpdates(updates));
    expect(DurableClocks.gapIn(whole)).toBeNull();
  });

  it('takes another process’s claim as stored from the start', () => {
    const { clientID, updates } = typedUpdates(2);
    const clocks = new DurableClocks();
    clocks.stored(updates[1]!);
    expect(clocks.entries().get(clientID) ?? 0).toBe(0);
    // The update stored here behind the gap joins the claim: the clock is now past it, and the claim says so.
    expect(clocks.claim(clientID, 1)).toBe(true);
    expect(clocks.entries().get(clientID)).toBe(2);
    // A claim that joins nothing, or is behind what is known, answers false.
    expect(clocks.claim(clientID, 2)).toBe(false);
    expect(clocks.claim(clientID, 1)).toBe(false);
    expect(new DurableClocks().claim(clientID, 5)).toBe(false);
  });

  it('never counts an update that deletes as covered, though its insertions are stored (its deletions may not be)', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => updates.push(update));
    doc.getText('t').insert(0, 'abc');
    doc.getText('t').delete(1, 1);
    const clocks = new DurableClocks();
    clocks.stored(updates[0]!);
    // The insertions and the deletion together, as a relay may carry them: the clocks are covered...
    const both = Y.mergeUpdates(updates);
    expect(Y.parseUpdateMeta(both).to.get(doc.clientID)).toBe(3);
    expect(clocks.entries().get(doc.clientID)).toBe(3);
    // ...but the deletion is stored nowhere yet, so the update must be stored.
    expect(clocks.covers(both)).toBe(false);
    expect(clocks.covers(updates[0]!)).toBe(true);
  });
});
