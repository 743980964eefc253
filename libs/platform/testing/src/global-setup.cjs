// Jest global setup of the integration and e2e suites: makes sure the real
// PostgreSQL, Kafka and S3-compatible server (moto) are running (installing
// them on a fresh machine) and tells the tests where they are.
// DSAR_INFRA=external skips the start-up and uses DATABASE_URL /
// KAFKA_BROKERS / DSAR_TEST_S3_URL as given. On the local broker it then deletes
// the test topics that earlier runs left (test-topics.ts).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../../../..');
  if (process.env.DSAR_INFRA !== 'external') {
    execFileSync('bash', [path.join(root, 'deploy/local/infra.sh'), 'up'], { stdio: 'inherit', cwd: root });
    const env = execFileSync('bash', [path.join(root, 'deploy/local/infra.sh'), 'env'], { cwd: root, encoding: 'utf8' });
    for (const line of env.split('\n')) {
      const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
      if (m) process.env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
    }
    // Jest compiles what its global setup requires.
    const { deleteStaleTestTopics } = require('./test-topics.ts');
    const deleted = await deleteStaleTestTopics(process.env.KAFKA_BROKERS || '127.0.0.1:9092');
    if (deleted > 0) process.stdout.write(`deleted ${deleted} test topics left by earlier runs\n`);
  }
  // The browser tests drive Debian's Chromium (installed when missing); with external infrastructure, a given
  // CHROMIUM_PATH is used as it is.
  if (process.env.DSAR_INFRA !== 'external' || !process.env.CHROMIUM_PATH) {
    const chromium = path.join(root, 'tools/scripts/chromium.sh');
    execFileSync('bash', [chromium, 'ensure'], { stdio: 'inherit', cwd: root });
    process.env.CHROMIUM_PATH = execFileSync('bash', [chromium, 'path'], { cwd: root, encoding: 'utf8' }).trim();
  }
  // The console's browser tests and the gateway's /console/ need its build (a no-op when the sources did not change).
  execFileSync(process.execPath, [path.join(root, 'tools/scripts/run-ts.cjs'), path.join(root, 'tools/scripts/console-build.ts'), '--if-stale'], { stdio: 'inherit', cwd: root });
  process.env.DATABASE_URL ||= 'postgres://dsar:dsar@127.0.0.1:5432/dsar';
  process.env.KAFKA_BROKERS ||= '127.0.0.1:9092';
  process.env.DSAR_TEST_S3_URL ||= 'http://127.0.0.1:9000';
};
