import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';

/** The API and the live-editing websocket are served by the server on :8080; dev and preview proxy to it. */
const backend = 'http://localhost:8080';
const proxy = {
  '/server': { target: backend, changeOrigin: true },
  '/collab': { target: backend, changeOrigin: true, ws: true },
  '/files': { target: backend, changeOrigin: true },
};

/**
 * Module-level definitions that their packages do not mark pure, though building one does nothing but
 * make its value: the bundler keeps every call it cannot prove pure, and all that the call reaches.
 * - Tiptap defines each extension it offers at the top of one module (`const X = Node.create({...})`):
 *   the note screen carried task lists, font sizes, undo/redo with prosemirror-history... that nothing uses.
 * - lib0/dom.js builds schemas of DOM nodes (`$.$custom(...)`) that pull in lib0's whole schema module;
 *   y-tiptap only reads `dom.doc`.
 * Each such definition gets the annotation bundlers read, so the unused ones go and the used ones stay
 * (`treeshake.manualPureFunctions` drops the calls but keeps the top level of the modules they import).
 * A comment inserted within a line: the source maps stay right line by line.
 */
const PURE_DEFINITIONS = [
  { id: /node_modules[\\/]@tiptap[\\/]/, definition: /^((?:const|let|var) [\w$]+ = )((?:Extension|Node|Mark)\.create\()/gm },
  { id: /node_modules[\\/]lib0[\\/]dom\.js$/, definition: /^(export const [\w$]+ = )(\$\.\$custom\()/gm },
];

const pureDefinitions: Plugin = {
  name: 'eln:pure-definitions',
  transform: {
    filter: { id: PURE_DEFINITIONS.map((rule) => rule.id) },
    handler(code, id) {
      const rule = PURE_DEFINITIONS.find((candidate) => candidate.id.test(id));
      return rule ? { code: code.replace(rule.definition, '$1/* @__PURE__ */ $2'), map: null } : null;
    },
  },
};

/** Libraries only the API reference (/api-docs, Scalar) uses. */
const API_REFERENCE_LIBRARIES = new RegExp(
  `node_modules[\\\\/](${[
    '@scalar',
    'vue',
    '@vue',
    '@vueuse',
    'vue-demi',
    'vue-sonner',
    '@headlessui',
    'radix-vue',
    '@floating-ui/vue',
    '@tanstack/vue-virtual',
    '@codemirror',
    '@lezer',
    '@replit',
    '@marijn',
    'style-mod',
    'crelt',
    'highlight\\.js',
    'lowlight',
    '@ai-sdk',
    'ai',
    'eventsource-parser',
    '@unhead',
    'unhead',
    'hookable',
    '@phosphor-icons',
    'micromark[^\\\\/]*',
    'mdast-[^\\\\/]+',
    'hast[^\\\\/]*',
    'rehype-[^\\\\/]+',
    'remark-[^\\\\/]+',
    'unified',
    'unist-[^\\\\/]+',
    'vfile[^\\\\/]*',
    'bail',
    'trough',
    'extend',
    'devlop',
    'zwitch',
    'ccount',
    'is-plain-obj',
    'longest-streak',
    'markdown-table',
    'collapse-white-space',
    'trim-trailing-lines',
    'decode-named-character-reference',
    'property-information',
    'space-separated-tokens',
    'comma-separated-tokens',
    'web-namespaces',
    'parse5',
    '@ungap/structured-clone',
    'js-yaml',
    'yaml',
    'jsonc-parser',
    'guess-json-indent',
    'truncate-json',
    'js-base64',
    'pretty-ms',
    'neverpanic',
    'pathe',
    'string-byte-length',
    'string-byte-slice',
    'fuse\\.js',
    'focus-trap',
    'tabbable',
    'swrv',
    'microdiff',
    '@humanwhocodes',
    'tailwind-merge',
    'cva',
  ].join('|')})[\\\\/]`,
);

export default defineConfig({
  // React Aria ships its strings (a calendar's "Next", a date field's "Year"...) for 34 languages: only the
  // interface's languages (shared LANGUAGES) are kept.
  plugins: [react(), pureDefinitions, optimizeLocales.vite({ locales: ['en', 'ko', 'ja'] })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // dist/.vite/manifest.json: which chunks each entry and lazy screen loads (read by the bundle bench).
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: a separate chunk stays cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ },
            // The live editor's libraries load with the note screen only (it is lazy), never with the first
            // route; chart.js loads with the first chart shown.
            { name: 'charts', test: /node_modules[\\/](chart\.js|@kurkle)[\\/]/ },
            {
              name: 'editor-vendor',
              test: /node_modules[\\/](@tiptap|prosemirror-[^\\/]+|orderedmap|rope-sequence|w3c-keyname|fast-equals|lib0|yjs|y-protocols|linkifyjs|@hocuspocus|@lifeomic)[\\/]/,
            },
            // The query cache serves the signed-in screens (lazy), not the sign-in page.
            { name: 'queries', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
            // CSV reading serves the schema and dropbox editors (lazy), not the sign-in page.
            { name: 'csv', test: /node_modules[\\/]papaparse[\\/]/ },
            // React Aria's date field and calendar serve the pages that show a date field (lazy).
            {
              name: 'dates',
              test: /node_modules[\\/](react-aria-components|react-aria|react-stately|@react-aria|@react-stately|@react-types|@internationalized)[\\/]/,
            },
            // Version comparison (jsdiff) serves the history and template comparisons (lazy), not the sign-in page.
            { name: 'diff', test: /node_modules[\\/]diff[\\/]/ },
            // Everything else from node_modules, but the API reference's libraries (Scalar: Vue, CodeMirror, a
            // Markdown pipeline...): they stay in /api-docs's own lazy chunk, never with the first route.
            { name: 'vendor', test: (id) => /node_modules[\\/]/.test(id) && !API_REFERENCE_LIBRARIES.test(id) },
          ],
        },
      },
    },
  },
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, proxy },
});
