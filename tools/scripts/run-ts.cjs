#!/usr/bin/env node
// Runs a TypeScript entry point of the workspace: swc compiles on the fly
// (with decorator metadata, which Nest's injection needs) and the path
// aliases of tsconfig.base.json resolve to the library sources.
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(root, 'tsconfig.base.json');
require('@swc-node/register');

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: run-ts.cjs <entry.ts> [args...]\n');
  process.exit(64);
}
process.argv.splice(1, 1);
require(path.resolve(entry));
