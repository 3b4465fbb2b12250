import type { projects } from '../db/schema.js';

/** A project's row. Its own module, so that the policy and the queries both read it without importing each other. */
export type ProjectRecord = typeof projects.$inferSelect;
