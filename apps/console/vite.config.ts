import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The operator console's bundle (docs/console.md) and the person's download page (docs/delivery.md): static files
 * that the api-gateway serves under /console/ and /portal/ with strict Content-Security-Policies, so the build must
 * emit no inline script or style. tools/scripts/console-build.ts runs it (`npm run console:build`).
 *
 * The page is a second entry of the same build with files of its own: `portal/index.html` and `portal/assets/*` of the
 * output, addressed from `/portal/`. It shares no chunk with the console (it imports none of its code).
 */
const consoleRoot = fileURLToPath(new URL('.', import.meta.url));
const PORTAL_DIR = 'portal/';

/** Whether an output file is the page's: made from its entry, or from a file under portal/ of the sources. */
const isPortal = (sources: readonly string[]) => sources.some((source) => source.startsWith(PORTAL_DIR));

export default defineConfig({
  root: consoleRoot,
  base: '/console/',
  // Nothing is copied as is: every file of the build comes from the sources and is named after its content.
  publicDir: false,
  // Vite's own transform compiles the JSX for Preact: no Babel, no React.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(consoleRoot, '../../dist/console'),
    emptyOutDir: true,
    // The polyfill is an inline script, which the CSP forbids; every browser the console supports has modulepreload.
    modulePreload: { polyfill: false },
    // Assets stay files: a data: URL in the bundle would be one more thing for the CSP to allow.
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      input: { index: resolve(consoleRoot, 'index.html'), portal: resolve(consoleRoot, `${PORTAL_DIR}index.html`) },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'portal' ? `${PORTAL_DIR}assets/[name]-[hash].js` : 'assets/[name]-[hash].js'),
        assetFileNames: (asset) => (isPortal(asset.originalFileNames) ? `${PORTAL_DIR}assets/[name]-[hash][extname]` : 'assets/[name]-[hash][extname]'),
      },
    },
  },
  experimental: {
    // The page's files are served under /portal/, not under the console's base.
    renderBuiltUrl: (filename) => (filename.startsWith(PORTAL_DIR) ? `/${filename}` : undefined),
  },
});
