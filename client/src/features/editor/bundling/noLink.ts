import { Mark } from '@tiptap/core';

/**
 * Stands in for `@tiptap/extension-link` in the browser build only (alias in client/vite.config.ts).
 * The note schema turns links off (`link: false` in shared/src/editor/extensions.ts), but StarterKit
 * imports the link extension and linkifyjs regardless: about 9 kB gzip of the editor chunk that never
 * runs. StarterKit configures it only when links are on: then this alias must go, and it says so at once.
 */
const NoLink = Mark.create({ name: 'link' });
NoLink.configure = () => {
  throw new Error('Links are on in the note schema: remove the @tiptap/extension-link alias from client/vite.config.ts.');
};

export const Link = NoLink;
export default NoLink;
