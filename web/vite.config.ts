// Builds the web client into dist/web (served by the gateway at /). Hashed file names under
// /assets/ are cached for good; the page and the public files are revalidated.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    // Tests and benches build elsewhere with --outDir.
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline module-preload polyfill: the CSP forbids inline scripts and every supported browser preloads.
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    // The chart library is one lazy chunk of ~850 kB (~250 kB gzip), loaded only when a chart is shown.
    chunkSizeWarningLimit: 1000,
  },
});
