import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The software bill of materials `npm run build` writes beside the product (`dist/sbom.cdx.json`, so the image carries
 * it): CycloneDX JSON of the production dependencies as package-lock.json pins them.
 *
 * npm makes it (`npm sbom`, no new dependency), from the lock file alone so that the build stage of the image, which
 * holds only the production packages, writes the same list as a developer's checkout. npm's own `--omit dev` is not
 * used: it drops every package that a development dependency also reaches, even a production one (npm/cli#7909; here
 * kafkajs, nodemailer, the Nest packages and a dozen more). The whole locked tree is listed instead and cut down to the
 * packages the lock file marks as not only for development.
 */

const REPO_ROOT = resolve(__dirname, '../..');
export const SBOM_FILE_NAME = 'sbom.cdx.json';
const DEVELOPMENT_PROPERTY = 'cdx:npm:package:development';

interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
}
/** What of package.json the bill needs. */
export interface ProductManifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
export interface PackageLock {
  packages: Record<string, LockEntry>;
}
interface Property {
  name: string;
  value: string;
}
export interface CycloneDxComponent {
  'bom-ref': string;
  name: string;
  version: string;
  purl?: string;
  properties?: Property[];
  [field: string]: unknown;
}
export interface CycloneDxBom {
  bomFormat: string;
  specVersion: string;
  metadata: { component: { 'bom-ref': string; name: string; [field: string]: unknown }; [field: string]: unknown };
  components: CycloneDxComponent[];
  dependencies: { ref: string; dependsOn: string[] }[];
  [field: string]: unknown;
}

/** `name@version` of every locked package that production installs (`npm ci --omit=dev`): npm's bom-ref. */
export function productionRefs(lock: PackageLock): Set<string> {
  const refs = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.link === true || entry.version === undefined) continue;
    // An alias (`"string-width-cjs": "npm:string-width@4.2.3"`) is listed under the real package's name.
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    refs.add(`${name}@${entry.version}`);
  }
  return refs;
}

/** `name@version` of the packages the product itself depends on in production: the root's edges that stay. */
function rootProductionRefs(lock: PackageLock, product: ProductManifest): Set<string> {
  const names = [...Object.keys(product.dependencies ?? {}), ...Object.keys(product.optionalDependencies ?? {})];
  return new Set(
    names.flatMap((name) => {
      const entry = lock.packages[`node_modules/${name}`];
      return entry?.version === undefined ? [] : [`${entry.name ?? name}@${entry.version}`];
    }),
  );
}

/** The dependency graph among `listed` only, one entry per ref; the root keeps only its edges in `rootEdges`. */
function prunedGraph(graph: CycloneDxBom['dependencies'], listed: Set<string>, rootRef: string, rootEdges: Set<string>): CycloneDxBom['dependencies'] {
  const dependsOn = new Map<string, Set<string>>();
  for (const d of graph) {
    if (!listed.has(d.ref)) continue;
    const targets = dependsOn.get(d.ref) ?? new Set<string>();
    // The product's edges to its development dependencies go, even to a package that production also installs.
    for (const ref of d.dependsOn) if (listed.has(ref) && (d.ref !== rootRef || rootEdges.has(ref))) targets.add(ref);
    dependsOn.set(d.ref, targets);
  }
  return [...dependsOn].map(([ref, targets]) => ({ ref, dependsOn: [...targets] }));
}

/**
 * The bill of `npm sbom` for the whole locked tree, cut down to the production packages. npm takes a component's flags
 * from the first copy of its `name@version` by path, so a production package that a development tool also installs
 * elsewhere in the tree can arrive marked as development: the lock file decides, not that mark. npm 10 (the image's)
 * also lists such a package once per copy, which CycloneDX forbids (a bom-ref is unique): one entry is kept.
 */
export function productionBom(whole: CycloneDxBom, lock: PackageLock, product: ProductManifest): CycloneDxBom {
  const kept = productionRefs(lock);
  const components = new Map<string, CycloneDxComponent>();
  for (const c of whole.components) {
    if (!kept.has(c['bom-ref']) || components.has(c['bom-ref'])) continue;
    components.set(c['bom-ref'], { ...c, properties: (c.properties ?? []).filter((p) => p.name !== DEVELOPMENT_PROPERTY) });
  }
  const rootRef = whole.metadata.component['bom-ref'];
  return {
    ...whole,
    // npm names the root after its directory (`app` in the image); the product's name is the package's.
    metadata: { ...whole.metadata, component: { ...whole.metadata.component, name: product.name } },
    components: [...components.values()],
    dependencies: prunedGraph(whole.dependencies, new Set([rootRef, ...components.keys()]), rootRef, rootProductionRefs(lock, product)),
  };
}

/** Writes the production bill of materials to `file`; npm must be on PATH (it is wherever `npm run build` runs). */
export async function writeSbom(file: string, repoRoot = REPO_ROOT): Promise<CycloneDxBom> {
  // `--include dev` keeps npm from omitting development packages by itself under NODE_ENV=production, which would
  // bring back the loss described above; the cut below is the only one.
  const { stdout } = await promisify(execFile)('npm', ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application', '--package-lock-only', '--include', 'dev'], {
    cwd: repoRoot,
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as PackageLock;
  const product = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as ProductManifest;
  const bom = productionBom(JSON.parse(stdout) as CycloneDxBom, lock, product);
  writeFileSync(file, `${JSON.stringify(bom, null, 2)}\n`);
  return bom;
}
