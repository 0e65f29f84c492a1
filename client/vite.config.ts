import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compressAssets } from './compress-assets.ts';

/*
 * Icons and the small building blocks most screens share, in one chunk: split by which screens
 * use them they came as a dozen files of a few hundred bytes, each costing a request and its
 * headers (about 1 KB) on a first load. Dialogs, menus and selects stay with the screens using them.
 */
const UI_TEST = new RegExp(
  [
    String.raw`node_modules[\/](lucide-react|tailwind-merge|class-variance-authority|clsx)[\/]`,
    String.raw`node_modules[\/]@radix-ui[\/](react-slot|react-compose-refs|react-primitive|react-context|react-progress|react-label)[\/]`,
    String.raw`client[\/]src[\/]components[\/](ui[\/](button|card|skeleton|badge|progress|alert|label|input|table|separator)|status-badge|download-status-badge|load-failed|empty-state|page-header|loading-view)\.tsx$`,
  ].join('|'),
);

const API_TARGET = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), compressAssets()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: API_TARGET,
        changeOrigin: true,
        // The server refuses state-changing requests from a foreign Origin. Requests from the dev
        // page itself are same-site, so they are presented with the API's origin; others pass as sent.
        configure: (proxy) => {
          proxy.on('proxyReq', (proxyReq, req) => {
            const origin = req.headers.origin;
            if (origin && origin === `http://${req.headers.host}`) proxyReq.setHeader('origin', new URL(API_TARGET).origin);
          });
        },
      },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/ },
            { name: 'data', test: /node_modules[\\/](@tanstack|@trpc|zod)[\\/]/ },
            { name: 'ui', test: UI_TEST },
          ],
        },
      },
    },
  },
});
