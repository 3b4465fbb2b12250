import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatedSchema, SCHEMA_FILE } from '../src/generate.js';

/** Writes the client's types from the route table's OpenAPI document (`npm run generate -w api-client`). */
writeFileSync(path.join(import.meta.dirname, '..', SCHEMA_FILE), await generatedSchema());
console.log(`wrote ${SCHEMA_FILE}`);
