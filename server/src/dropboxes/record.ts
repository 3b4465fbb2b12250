import type { dropboxes } from '../db/schema.js';

/** A dropbox's row. */
export type DropboxRecord = typeof dropboxes.$inferSelect;
