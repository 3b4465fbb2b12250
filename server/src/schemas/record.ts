import type { schemas, schemaTypes } from '../db/schema.js';

export type SchemaTypeRecord = typeof schemaTypes.$inferSelect;
export type SchemaRecord = typeof schemas.$inferSelect;
