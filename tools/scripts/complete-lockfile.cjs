#!/usr/bin/env node
// Run after `npm install`. Native packages (swc, the resolver used by Jest)
// list one optional binary package per platform. When the registry a machine
// reaches does not serve some of those platform packages, npm leaves them out
// of package-lock.json, and `npm ci` then rejects the lock as out of sync.
// This adds a lock entry, marked optional and pinned to its os/cpu, for each
// such missing platform binary; on the platforms that need them npm fetches
// them, everywhere else npm skips them.
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const lockPath = path.resolve(__dirname, '../../package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony'];
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  return { os, cpu };
}

let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`;
    if (packages[target]) continue;
    const { os, cpu } = platformOf(dep);
    if (!os || !cpu) continue; // not a platform binary: leave it to npm
    packages[target] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      cpu: [cpu],
    };
    added++;
  }
  void key;
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} optional platform entries\n`);
