import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

/**
 * The image's Dockerfile, checked without a container engine (none runs here): hadolint (tools/scripts/hadolint.sh,
 * installed from PyPI) finds nothing to report, and the properties the Helm chart relies on hold.
 */
const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const dockerfile = readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8');
const instructions = dockerfile.split('\n').filter((l) => /^[A-Z]+\s/.test(l));

it('hadolint reports nothing', async () => {
  const { stdout } = await run('bash', [path.join(root, 'tools/scripts/hadolint.sh'), 'deploy/Dockerfile'], { cwd: root, timeout: 300_000 });
  expect(stdout.trim()).toBe('');
}, 320_000);

it('builds in stages and ships the production dependencies only, installed from the lock file', () => {
  expect(instructions.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
  expect(dockerfile).toMatch(/npm ci --omit=dev/);
  expect(dockerfile).toMatch(/COPY --from=deps \/app\/node_modules/);
});

it('compiles the product in a build stage and ships its output, not the TypeScript sources (ADR 0030)', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? '';
  expect(stages.some((s) => /\bAS build\b/.test(s.split('\n')[0]) && /^RUN npm run build$/m.test(s))).toBe(true);
  expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
  // From the build context, only the package files: no TypeScript source, no swc settings.
  expect(runtime.split('\n').filter((l) => l.startsWith('COPY ') && !l.startsWith('COPY --from='))).toEqual(['COPY package.json package-lock.json ./']);
  expect(runtime).not.toContain('run-ts.cjs');
});

it('carries the bill of materials the build writes into dist/, made in a stage that holds the lock file', () => {
  // tools/scripts/sbom.ts makes dist/sbom.cdx.json from package-lock.json (`npm sbom --package-lock-only`).
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const named = (name: string) => stages.find((s) => new RegExp(`\\bAS ${name}$`).test(s.split('\n')[0])) ?? '';
  // The build stage installs every dependency from the lock file: the console's bundler is a development one.
  expect(named('build')).toMatch(/^COPY package\.json package-lock\.json\b/m);
  expect(named('build')).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
  expect(named('deps')).toMatch(/^COPY package\.json package-lock\.json\b/m);
  expect(stages.at(-1)).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
  expect(readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n')).not.toContain('package-lock.json');
});

it('runs as a numeric non-root user, with OCI labels, and starts the api-gateway by default', () => {
  const users = instructions.filter((l) => l.startsWith('USER '));
  expect(users.at(-1)).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
  for (const label of ['title', 'version', 'revision', 'source', 'licenses']) expect(dockerfile).toContain(`org.opencontainers.image.${label}=`);
  expect(instructions.at(-1)).toBe('CMD ["node", "dist/apps/api-gateway/src/main.js"]');
});

it('keeps local state, tools and secrets out of the build context', () => {
  const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['**/node_modules', '.git', '.data', '.infra', '.tools', '.env', '*.pem']) expect(ignored).toContain(entry);
});
