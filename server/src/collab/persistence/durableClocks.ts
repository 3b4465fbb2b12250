import * as Y from 'yjs';

/** A client's stored clock range above a gap: [from, to). */
interface Range {
  from: number;
  to: number;
}

/** What a load found that it could not apply: per client, the clock its stored edits stop at, and the pending rest. */
export interface ClockGap {
  /** Per client, the clock the applied state reaches (edits from there on are missing in the store). */
  appliedUpTo: Record<string, number>;
  /** Per client, clocks of stored structs left pending behind the gap. */
  pendingClients: number[];
}

/**
 * Per Yjs client, the clock up to which its edits are stored with no gap. A stored update that starts
 * above the current end (an earlier one was lost, e.g. relayed by a process that died before storing
 * it) is kept aside and counts only once the gap before it is filled: a later edit can never make an
 * earlier lost one look saved. The start is the state vector of the loaded document, which Yjs computes
 * from integrated structs only (structs behind a gap stay pending and are not counted).
 */
export class DurableClocks {
  private readonly ends = new Map<number, number>();
  private readonly above = new Map<number, Range[]>();

  /** Starts from the state vector of a document holding exactly what is stored. */
  static ofLoaded(doc: Y.Doc): DurableClocks {
    const clocks = new DurableClocks();
    for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(doc))) clocks.ends.set(client, clock);
    return clocks;
  }

  /** The clock gap in a document just loaded from the store, or null when every stored struct applied. */
  static gapIn(doc: Y.Doc): ClockGap | null {
    const pending = doc.store.pendingStructs;
    if (!pending) return null;
    return {
      appliedUpTo: Object.fromEntries(Y.decodeStateVector(Y.encodeStateVector(doc))),
      pendingClients: [...pending.missing.keys()],
    };
  }

  /** Records an update as stored; answers the clients whose items it holds. */
  stored(update: Uint8Array): Iterable<number> {
    const { from, to } = Y.parseUpdateMeta(update);
    for (const [client, end] of to) this.add(client, from.get(client) ?? 0, end);
    return to.keys();
  }

  /**
   * Takes another process's (or an earlier) claim: its edits up to `clock` are stored with no gap.
   * Answers whether updates stored here and kept aside behind the gap joined it, so that the client's
   * clock here now lies beyond the claim: nobody else can tell the client so, this process must.
   */
  claim(client: number, clock: number): boolean {
    const before = this.ends.get(client) ?? 0;
    this.add(client, 0, clock);
    const after = this.ends.get(client) ?? 0;
    return after > clock && after > before;
  }

  /**
   * Whether every struct in the update is already stored with no gap before it. Clocks count inserted
   * content only: an update that also deletes is never covered, since its deletions may be stored
   * nowhere yet (they can travel apart from the insertions that carry the clocks). Storing it again is
   * harmless; Yjs merges a repeated deletion.
   */
  covers(update: Uint8Array): boolean {
    const { to } = Y.parseUpdateMeta(update);
    if (to.size === 0 || Y.decodeUpdate(update).ds.clients.size > 0) return false;
    for (const [client, end] of to) if ((this.ends.get(client) ?? 0) < end) return false;
    return true;
  }

  entries(): Map<number, number> {
    return this.ends;
  }

  private add(client: number, from: number, to: number): void {
    const end = this.ends.get(client) ?? 0;
    if (to <= end) return;
    if (from > end) {
      // Stored, but a gap lies before it: kept aside until the gap is filled.
      const ranges = this.above.get(client) ?? [];
      ranges.push({ from, to });
      this.above.set(client, ranges);
      return;
    }
    let reached = to;
    const ranges = this.above.get(client);
    if (ranges) {
      // Ranges kept aside that now join the contiguous part extend it.
      ranges.sort((x, y) => x.from - y.from);
      const rest: Range[] = [];
      for (const range of ranges) {
        if (range.from <= reached) reached = Math.max(reached, range.to);
        else rest.push(range);
      }
      if (rest.length) this.above.set(client, rest);
      else this.above.delete(client);
    }
    this.ends.set(client, reached);
  }
}
