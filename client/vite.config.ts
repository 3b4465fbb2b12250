import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API and the live-editing websocket are served by the server on :8080; dev and preview proxy to it. */
const backend = 'http://localhost:8080';
const proxy = {
  '/server': { target: backend, changeOrigin: true },
  '/collab': { target: backend, changeOrigin: true, ws: true },
  '/files': { target: backend, changeOrigin: true },
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Links are off in the note schema; StarterKit would still bundle the link extension and linkifyjs.
    alias: { '@tiptap/extension-link': fileURLToPath(new URL('./src/features/editor/bundling/noLink.ts', import.meta.url)) },
  },
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
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, proxy },
});
