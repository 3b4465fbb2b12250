import type { schemas, schemaTypes } from '../db/schema.js';

/** A schema type's row and a child schema's. Their own module, so that presenters and queries both read them. */
export type SchemaTypeRecord = typeof schemaTypes.$inferSelect;
export type SchemaRecord = typeof schemas.$inferSelect;
