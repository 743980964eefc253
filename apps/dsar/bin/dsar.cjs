#!/usr/bin/env node
// The `dsar` command, the root package's bin. It runs the CLI's TypeScript sources, compiled to JavaScript on demand
// and kept compiled (docs/adr/0037-first-day-defaults.md): the first run of a source compiles it with @swc/core and
// writes the result under node_modules/.cache/dsar-cli/; every later run reads that back while the source is
// unchanged (its hash is in the first line), without loading swc at all. Nothing is built at install time:
// `npm ci && npx dsar` works on a fresh clone, and an edited source is recompiled by the next command.
// DSAR_CLI_CACHE_DIR names another cache directory; one that cannot be written only costs the compile of each run.
// The path aliases of tsconfig.base.json resolve to the library sources, as tools/scripts/run-ts.cjs resolves them.
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const root = path.resolve(__dirname, '../../..');
const cacheDir = process.env.DSAR_CLI_CACHE_DIR || path.join(root, 'node_modules/.cache/dsar-cli');
// The compile's settings: a change to them (or to swc's version, below) invalidates every cached file.
const SWC_OPTIONS = { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } };

// Node 22.1+ also keeps V8's code cache of every module it compiles (the cached JavaScript included).
if (typeof Module.enableCompileCache === 'function') {
  try {
    Module.enableCompileCache(path.join(cacheDir, 'v8'));
  } catch {
    // no code cache: only slower
  }
}

let paths;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  if (request.startsWith('@dsar/')) {
    paths ??= JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
    const alias = paths[request];
    if (alias) return resolveFilename.call(this, path.join(root, alias[0]), ...rest);
  }
  return resolveFilename.call(this, request, ...rest);
};

let compilerKey;
/** swc's version and the options: part of every source's cache key. */
function compiler() {
  compilerKey ??= `${require('@swc/core/package.json').version} ${JSON.stringify(SWC_OPTIONS)}`;
  return compilerKey;
}

/** The JavaScript of a TypeScript source: from the cache when the source is the one it was compiled from. */
function javascriptOf(filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha256').update(compiler()).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${crypto.createHash('sha256').update(filename).digest('hex').slice(0, 32)}.js`);
  const stamp = `// dsar-cli ${key}\n`;
  try {
    const text = fs.readFileSync(cached, 'utf8');
    if (text.startsWith(stamp)) return text.slice(stamp.length);
  } catch {
    // not compiled yet
  }
  const { code } = require('@swc/core').transformSync(source, { ...SWC_OPTIONS, filename });
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    // Written beside and renamed: a command running at the same time reads a whole file or none.
    const temp = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(temp, stamp + code);
    fs.renameSync(temp, cached);
  } catch {
    // a read-only tree: compiled again next time
  }
  return code;
}

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  module._compile(javascriptOf(filename), filename);
};

require('../src/main.ts');
