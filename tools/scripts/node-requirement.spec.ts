import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node.js version the product needs is stated in three places (package.json `engines`, the README's quick start
 * and the image's base in deploy/Dockerfile): they must name the same minimum, and that minimum must be one every
 * production dependency declares support for. A dependency of the development tools alone does not raise it.
 */

const root = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

type Version = [number, number, number];

function versionOf(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `version` meets one comparator of an npm range, in the forms package-lock.json's `engines.node` use. */
function meets(version: Version, comparator: string): boolean {
  if (comparator === '*' || comparator === '') return true;
  const [, op = '', bound = ''] = /^(>=|<=|>|<|\^|~|=)?(.*)$/.exec(comparator) ?? [];
  const target = versionOf(bound);
  const order = compare(version, target);
  if (op === '>=') return order >= 0;
  if (op === '>') return order > 0;
  if (op === '<=') return order <= 0;
  if (op === '<') return order < 0;
  if (op === '^') return order >= 0 && version[0] === target[0];
  // A bare or wildcard version (`14`, `6.*`, `~14.17`): that major, from the given minor on.
  return version[0] === target[0] && order >= 0;
}

function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => meets(version, comparator)),
  );
}

describe('the Node.js requirement', () => {
  const manifest = JSON.parse(read('package.json')) as { engines: { node: string } };
  const stated = /^>=(\d+\.\d+)$/.exec(manifest.engines.node)?.[1];

  it('is one minimum, stated alike in package.json, the README and the image', () => {
    expect(stated).toBeDefined();
    expect(read('README.md')).toContain(`Requirements: Node.js ${stated}+`);
    expect(read('deploy/Dockerfile')).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${stated!.replace('.', '\\.')}-`, 'm'));
  });

  it('is supported by every production dependency that declares the Node.js versions it supports', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean; engines?: { node?: string } }> };
    const minimum = versionOf(stated ?? '0');
    const unsupported = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.dev && !p.optional && !p.devOptional && p.engines?.node)
      .filter(([, p]) => !satisfies(minimum, p.engines!.node!))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} wants ${p.engines!.node}`);
    expect(unsupported).toEqual([]);
  });

  it('reads npm ranges as npm does, on the forms the lock file holds', () => {
    expect(satisfies([20, 19, 0], '>=22.12.0')).toBe(false);
    expect(satisfies([22, 12, 0], '>=22.12.0')).toBe(true);
    expect(satisfies([22, 12, 0], '>= 20')).toBe(true);
    expect(satisfies([22, 12, 0], '^16 || ^18 || >=20')).toBe(true);
    expect(satisfies([22, 12, 0], '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies([14, 16, 0], '>=16 || 14 >=14.17')).toBe(false);
    expect(satisfies([22, 12, 0], '^20.19.0 || ^22.13.0 || >=23.5.0')).toBe(false);
    expect(satisfies([22, 12, 0], '*')).toBe(true);
  });
});
