/**
 * The editor's schema, shared by browser and server: `@eln/shared/editor`. A separate entry from
 * `@eln/shared`, so that pages without the editor do not load Tiptap.
 */
export * from './nodes.js';
export * from './tableCells.js';
export * from './blockUid.js';
export * from './extensions.js';
export * from './schema.js';
export * from './chartData.js';
export * from './chartConfig.js';
