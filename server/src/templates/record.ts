import type { templateRevisions, templates } from '../db/schema.js';

/** A template's row and a checked-in revision's. Their own module, so that policy, queries and presenters read them without importing each other. */
export type TemplateRecord = typeof templates.$inferSelect;
export type RevisionRecord = typeof templateRevisions.$inferSelect;
