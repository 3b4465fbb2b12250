import { describe, expect, it } from 'vitest';
import { NODE, type PmNode } from '@eln/shared';
import { CatalogueSeals } from './catalogueSeals.js';

/**
 * Seals are stored in saved notes, so seals made before a change must verify after it. These were made
 * by the server as it was (the key `catalogue-copy:<secret>`, an HMAC-SHA256 over sealedText) with the
 * secret below.
 */
const SECRET = 'a stored secret';
const STORED_SCHEMA_BLOCK = {
  schemasTypeNo: 3,
  schemaNo: 12,
  typeTitle: 'Reagent',
  title: 'Sodium chloride',
  revision: 2,
  entries: [
    { field: 'CAS', value: '7647-14-5' },
    { field: 'Purity', value: '≥ 99 %' },
  ],
  seal: 'fJ511YaebdWAErKVzmTwE6Uvp3QcYrmv4JoCtsXVz5g',
};
const STORED_DROPBOX_CELL = {
  dropboxNo: 4,
  title: 'Buffers',
  code: 'B-7',
  name: 'PBS',
  seal: 'nU4P_MHJvHHQeSHvp_WMthKvapRDXh3-eLpnN-SasSE',
};

const schemaBlock = (attrs: object): PmNode => ({ type: NODE.schemaBlock, attrs: { blockUid: 'b1', ...attrs } });
const tableWithDropbox = (dropbox: object): PmNode => ({
  type: NODE.table,
  attrs: { blockUid: 't1' },
  content: [{ type: NODE.tableRow, content: [{ type: NODE.tableCell, attrs: { dropbox }, content: [{ type: NODE.paragraph }] }] }],
});

describe('catalogue seals', () => {
  const seals = new CatalogueSeals(SECRET);

  it('are made as they always were', () => {
    const { seal: _schemaSeal, ...schemaCopy } = STORED_SCHEMA_BLOCK;
    const { seal: _dropboxSeal, ...dropboxCopy } = STORED_DROPBOX_CELL;
    expect(seals.seal('schemaBlock', schemaCopy)).toEqual(STORED_SCHEMA_BLOCK);
    expect(seals.seal('dropboxCell', dropboxCopy)).toEqual(STORED_DROPBOX_CELL);
  });

  it('already stored in notes still verify', () => {
    expect(seals.violations(schemaBlock(STORED_SCHEMA_BLOCK))).toEqual([]);
    expect(seals.violations(tableWithDropbox(STORED_DROPBOX_CELL))).toEqual([]);
  });

  it('do not cover a changed copy, a copy of the other kind, or another secret', () => {
    expect(seals.violations(schemaBlock({ ...STORED_SCHEMA_BLOCK, title: 'Potassium chloride' }))).toEqual([
      { rule: 'catalogueCopy', blockUid: 'b1' },
    ]);
    expect(seals.violations(tableWithDropbox({ ...STORED_DROPBOX_CELL, code: 'B-8' }))).toEqual([
      { rule: 'catalogueCopy', blockUid: 't1' },
    ]);
    const { seal: _seal, ...dropboxCopy } = STORED_DROPBOX_CELL;
    expect(seals.violations(tableWithDropbox({ ...dropboxCopy, seal: seals.seal('schemaBlock', dropboxCopy).seal }))).toHaveLength(1);
    expect(new CatalogueSeals('another secret').violations(schemaBlock(STORED_SCHEMA_BLOCK))).toHaveLength(1);
  });
});
