#!/usr/bin/env node
// The `dsar` command, the root package's bin. Like tools/scripts/run-ts.cjs (docs/adr/0008-typescript-at-runtime-with-swc.md)
// it compiles the TypeScript with swc as it is required and resolves the path aliases of tsconfig.base.json, but
// through @swc/core itself: the CLI has no decorators and imports aliases by their exact names, and a command starts
// in a third of the time @swc-node/register takes (that loads the TypeScript compiler to read the tsconfig).
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../..');
const { paths } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  const alias = paths[request];
  return resolveFilename.call(this, alias ? path.join(root, alias[0]) : request, ...rest);
};

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const options = { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } };
  module._compile(transformSync(fs.readFileSync(filename, 'utf8'), options).code, filename);
};

require('../src/main.ts');
