import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The operator console's bundle (docs/console.md): static files that the api-gateway serves under /console/ with a
 * strict Content-Security-Policy, so the build must emit no inline script or style. tools/scripts/console-build.ts
 * runs it (`npm run console:build`).
 */
const consoleRoot = fileURLToPath(new URL('.', import.meta.url));

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
  },
});
