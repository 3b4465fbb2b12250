import { describe, expect, it } from 'vitest';
import type { Block, BlockTable } from '@eln/shared';
import { checkClientList } from './clientList.js';

const warnings: unknown[] = [];
const services = { log: { warn: (data: unknown) => warnings.push(data) } } as unknown as Parameters<typeof checkClientList>[0];

const table = (cell: string): BlockTable => ({ header: [[{ text: 'pH', colspan: 1, rowspan: 1 }]], body: [[{ text: cell, colspan: 1, rowspan: 1 }]] }) as unknown as BlockTable;
const block = (blockTable: BlockTable): Block => ({ type: 'table', blockUid: 't1', noteType: 'LABNOTE', blockClass: 'table', blockTable, content: '{}', blockOdr: 1, blockStatus: 'NORMAL' }) as Block;

describe('the client block list check', () => {
  it('takes a table with its keys in another order as the same, and a changed cell as a difference', () => {
    const server = [block(table('7.4'))];
    const reordered = JSON.parse(JSON.stringify({ body: server[0]!.blockTable!.body, header: server[0]!.blockTable!.header })) as BlockTable;
    expect(checkClientList(services, 1, [block(reordered)], server)).toBe(true);
    expect(warnings).toHaveLength(0);
    expect(checkClientList(services, 1, [block(table('7.5'))], server)).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});
