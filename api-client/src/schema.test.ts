import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSchema, SCHEMA_FILE } from './generate.js';

// Generating and formatting 18,000 lines takes seconds, more than a unit test's default 5 s on a busy machine.
describe("the script client's generated types", () => {
  it('are those of the current route table (else run `npm run generate -w api-client` and commit the result)', async () => {
    const kept = readFileSync(path.join(import.meta.dirname, '..', SCHEMA_FILE), 'utf8');
    expect(kept === (await generatedSchema()), `${SCHEMA_FILE} is not current: run npm run generate -w api-client`).toBe(true);
  }, 60_000);
});
