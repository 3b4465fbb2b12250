import { blockListsDiffer, type Block } from '@eln/shared';
import { tableText } from '../collab/documents/contentSnapshots.js';
import type { Services } from '../services.js';

/** Compares the client's list with the server's and logs a mismatch: the server's list is the record. */
export function checkClientList(
  services: Pick<Services, 'log'>,
  noteNo: number,
  client: readonly Block[],
  server: readonly Block[],
): boolean {
  const strip = (list: readonly Block[]) => list.filter((b) => b.blockStatus !== 'DELETE');
  const matches = !blockListsDiffer(strip(client), strip(server), tableText, sameTable);
  if (!matches)
    services.log.warn({ noteNo, client: client.length, server: server.length }, 'client block list differs from the server document');
  return matches;
}

/**
 * Tables compared as their canonical JSON is, quicker in the usual case: the client's tables are new
 * objects on every call, and a structural comparison (key order aside, as canonical JSON ignores it)
 * answers "same" without writing a 30 x 30 table out. Any difference it sees is judged by the text.
 */
function sameTable(x: unknown, y: unknown): boolean {
  return sameJson(x, y) || tableText(x) === tableText(y);
}

/**
 * Whether two parsed JSON values are equal, key order aside, allocating nothing: `for...in` where
 * node's isDeepStrictEqual made two key arrays per object, 900 cells' worth on every temp save of a
 * 30 x 30 table (a sixth of what the call allocated, and so of its young-generation collections).
 */
export function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const other = y as unknown[];
    if (x.length !== other.length) return false;
    for (let i = 0; i < x.length; i += 1) if (!sameJson(x[i], other[i])) return false;
    return true;
  }
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  let unmatched = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false;
    unmatched += 1;
  }
  for (const key in b) if (Object.hasOwn(b, key)) unmatched -= 1;
  return unmatched === 0;
}

/**
 * checkClientList once the answer has gone out: the comparison only feeds the log (the server's list is
 * the record), and a 30 x 30 table's comparison would otherwise add to every temp save the writer waits on.
 */
export function checkClientListAfterAnswer(
  services: Pick<Services, 'log'>,
  noteNo: number,
  client: readonly Block[],
  server: readonly Block[],
): void {
  setImmediate(() => {
    try {
      checkClientList(services, noteNo, client, server);
    } catch (error) {
      services.log.warn({ err: error, noteNo }, 'client block list check failed');
    }
  });
}
