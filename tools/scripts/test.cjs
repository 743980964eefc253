#!/usr/bin/env node
// `npm test`: lint, type-check, then the unit suite (two workers), the
// integration and e2e suites (one at a time, in one recycled worker: they share
// the one local broker, which one test stops and restarts), and last the resilience suite (faults
// under load: it stops and restarts Kafka and PostgreSQL). Ends with one line `N passed, N failed`,
// counting every Jest test plus the lint and type-check steps.
const { spawnSync } = require('node:child_process');
const { mkdirSync, readFileSync, existsSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const reports = path.join(root, '.reports');
mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;

function step(name, command, args, env = {}) {
  process.stdout.write(`\n=== ${name}\n`);
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function check(name, command, args) {
  if (step(name, command, args)) passed++;
  else {
    failed++;
    process.stdout.write(`${name} failed\n`);
  }
}

function jest(name, args) {
  const out = path.join(reports, `jest-${name}.json`);
  rmSync(out, { force: true });
  const ok = step(`jest: ${name}`, process.execPath, [require.resolve('jest/bin/jest'), ...args, '--json', `--outputFile=${out}`], {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim(),
  });
  if (!existsSync(out)) {
    failed++; // Jest could not even run: count the suite as one failure
    return;
  }
  const result = JSON.parse(readFileSync(out, 'utf8'));
  passed += result.numPassedTests;
  // Skipped or todo tests count as failures: a test that does not run proves nothing.
  failed += result.numFailedTests + result.numPendingTests + result.numTodoTests + result.numRuntimeErrorTestSuites;
  if (!ok && result.numFailedTests + result.numRuntimeErrorTestSuites === 0) failed++;
}

check('lint', 'npm', ['run', '--silent', 'lint']);
check('type-check', 'npm', ['run', '--silent', 'typecheck']);
jest('unit', ['--selectProjects', 'unit', '--maxWorkers=2']);
// One worker, not in band: every embedded system of a suite lives in the Jest process that runs it, and
// what a suite leaves on the heap (module registries, PGlite instances) adds up over a hundred suites, to
// slow garbage collection and then to V8's heap limit. The worker is replaced once a suite leaves it above
// the limit; --logHeapUsage prints each suite's heap so that growth shows in the run's output.
jest('integration-e2e', ['--selectProjects', 'integration', 'e2e', '--maxWorkers=1', '--workerIdleMemoryLimit=1536MB', '--logHeapUsage', '--forceExit']);
// Faults under load stop and start the shared Kafka and PostgreSQL: alone, after everything else.
jest('resilience', ['--selectProjects', 'resilience', '--runInBand', '--forceExit']);

process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
