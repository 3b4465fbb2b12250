import { describe, expect, it } from 'vitest';
import type { Block, BlockTable } from '@eln/shared';
import { checkClientList, sameJson } from './clientList.js';

const warnings: unknown[] = [];
const services = { log: { warn: (data: unknown) => warnings.push(data) } } as unknown as Parameters<typeof checkClientList>[0];

const table = (cell: string): BlockTable =>
  ({ header: [[{ text: 'pH', colspan: 1, rowspan: 1 }]], body: [[{ text: cell, colspan: 1, rowspan: 1 }]] }) as unknown as BlockTable;
const block = (blockTable: BlockTable): Block => ({
  type: 'table',
  blockUid: 't1',
  noteType: 'LABNOTE',
  blockClass: 'table',
  blockTable,
  content: '{}',
  blockOdr: 1,
  blockStatus: 'NORMAL',
});

describe('the client block list check', () => {
  it('takes a table with its keys in another order as the same, and a changed cell as a difference', () => {
    const server = [block(table('7.4'))];
    const reordered = JSON.parse(
      JSON.stringify({ body: server[0]!.blockTable!.body, header: server[0]!.blockTable!.header }),
    ) as BlockTable;
    expect(checkClientList(services, 1, [block(reordered)], server)).toBe(true);
    expect(warnings).toHaveLength(0);
    expect(checkClientList(services, 1, [block(table('7.5'))], server)).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});

describe('sameJson', () => {
  it('takes equal values as equal whatever the key order', () => {
    expect(sameJson({ a: 1, b: [1, { c: null, d: 'x' }] }, { b: [1, { d: 'x', c: null }], a: 1 })).toBe(true);
    expect(sameJson([], [])).toBe(true);
    expect(sameJson(null, null)).toBe(true);
  });

  it('tells every kind of difference apart', () => {
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([1, [2]], [1, [3]])).toBe(false);
    expect(sameJson({ 0: 'x' }, ['x'])).toBe(false);
    expect(sameJson(['x'], { 0: 'x' })).toBe(false);
    expect(sameJson({ a: null }, { a: {} })).toBe(false);
    expect(sameJson({ a: {} }, { a: null })).toBe(false);
    expect(sameJson(1, '1')).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    // Only own keys count, as in the canonical JSON: an inherited key is no match for an own one.
    expect(sameJson(Object.create({ k: 1 }) as object, { k: 1 })).toBe(false);
  });
});
