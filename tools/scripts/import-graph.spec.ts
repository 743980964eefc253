import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * The import graph of the product code (apps/ and libs/, without tests and
 * test helpers), read with TypeScript's own import scanner:
 *
 * - no circle of files importing each other, type-only imports included (a
 *   circle of types is still two files that cannot be read one at a time);
 * - across the repository, contracts < connector SDK < platform < services <
 *   apps: a library never imports from a floor above its own, and a service
 *   library never imports another one (they meet through HTTP and events); the
 *   connector SDK, which teams add to their own services, stands on the
 *   contracts alone;
 * - inside a service library (README, "Repository layout"), domain < application
 *   and infrastructure < api and events: the domain imports no other layer,
 *   application and infrastructure never import api or events, and no layer
 *   imports the service's module or index (which wire the layers together).
 *
 * Application and infrastructure share a floor because the code uses both
 * directions on purpose: use cases read and write through the entities and
 * stores of infrastructure, and infrastructure implements ports that
 * application declares (channels, deliverable artifacts). The circle check
 * keeps the two from depending on each other file by file.
 */

const repoRoot = path.resolve(__dirname, '../..');
const TEST_FILE = /\.(spec|int-spec|e2e-spec|resilience-spec|bench)\.ts$|-test-kit\.ts$/;
// The lint-boundaries spec writes short-lived probe files (`__boundary_probe_<pid>__.ts`) while it runs.
const PROBE_FILE = /^__.*__\.ts$/;
const SERVICE_LAYERS = ['domain', 'application', 'infrastructure', 'api', 'events'] as const;
type ServiceLayer = (typeof SERVICE_LAYERS)[number];

/** What each layer of a service library may not import (besides the module and index). */
const FORBIDDEN_LAYERS: Record<ServiceLayer, readonly ServiceLayer[]> = {
  domain: ['application', 'infrastructure', 'api', 'events'],
  application: ['api', 'events'],
  infrastructure: ['api', 'events'],
  api: [],
  events: [],
};

type Floor = 'contracts' | 'sdk' | 'platform' | 'service' | 'app';
const FLOOR_ORDER: readonly Floor[] = ['contracts', 'sdk', 'platform', 'service', 'app'];

function productFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Test helpers live in `testing` folders (libs/platform/testing, storage's blob-store contract).
      if (entry.name !== 'node_modules' && entry.name !== 'testing') found.push(...productFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !TEST_FILE.test(entry.name) && !PROBE_FILE.test(entry.name)) {
      found.push(full);
    }
  }
  return found;
}

function aliasTargets(): Map<string, string> {
  const config = ts.readConfigFile(path.join(repoRoot, 'tsconfig.base.json'), ts.sys.readFile).config as { compilerOptions: { paths: Record<string, string[]> } };
  return new Map(Object.entries(config.compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(repoRoot, target)]));
}

function resolveFile(base: string): string | undefined {
  // The console's components are `.tsx`.
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

/** Imports of our own code that name no file this check can read: it would miss their edges. */
const unresolved: string[] = [];

/** The product files a file imports (relative and `@dsar/...` imports; packages are not product code). */
function importsOf(file: string, aliases: Map<string, string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets: string[] = [];
  for (const { fileName } of importedFiles) {
    const ours = fileName.startsWith('.') || fileName.startsWith('@dsar/');
    const target = fileName.startsWith('.') ? resolveFile(path.resolve(path.dirname(file), fileName)) : aliases.get(fileName);
    if (target) targets.push(target);
    else if (ours && !/\.(json|cjs|js|css)$/.test(fileName)) unresolved.push(`${relative(file)}: ${fileName}`);
  }
  return targets;
}

function buildGraph(): Map<string, string[]> {
  const aliases = aliasTargets();
  const files = [...productFiles(path.join(repoRoot, 'apps')), ...productFiles(path.join(repoRoot, 'libs'))];
  return new Map(files.map((file) => [file, importsOf(file, aliases)]));
}

/** The circles of the graph: its strongly connected components of more than one file, or a file importing itself. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.map(relative).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

const relative = (file: string): string => path.relative(repoRoot, file).split(path.sep).join('/');

interface Place {
  floor: Floor;
  /** The service library's folder name, for files of a service library. */
  service?: string;
  layer?: ServiceLayer;
  /** The service's module or index file, which wires its layers. */
  wiring?: boolean;
}

function placeOf(file: string): Place | undefined {
  const parts = relative(file).split('/');
  if (parts[0] === 'apps') return { floor: 'app' };
  if (parts[0] !== 'libs') return undefined;
  if (parts[1] === 'contracts') return { floor: 'contracts' };
  if (parts[1] === 'connector-sdk') return { floor: 'sdk' };
  if (parts[1] === 'platform') return { floor: 'platform' };
  if (parts[1] !== 'services') return undefined;
  const inSrc = parts.slice(parts.indexOf('src') + 1);
  const layer = inSrc.find((part): part is ServiceLayer => (SERVICE_LAYERS as readonly string[]).includes(part));
  const name = inSrc[inSrc.length - 1];
  return { floor: 'service', service: parts[2], layer, wiring: layer === undefined && (name === 'index.ts' || name.endsWith('.module.ts')) };
}

function layerProblem(from: Place, to: Place): string | undefined {
  if (FLOOR_ORDER.indexOf(to.floor) > FLOOR_ORDER.indexOf(from.floor)) return `${from.floor} imports ${to.floor}`;
  if (from.floor !== 'service' || to.floor !== 'service') return undefined;
  if (from.service !== to.service) return 'a service library imports another service library';
  if (!from.layer) return undefined;
  if (to.wiring) return `${from.layer} imports the service's wiring`;
  if (to.layer && FORBIDDEN_LAYERS[from.layer].includes(to.layer)) return `${from.layer} imports ${to.layer}`;
  return undefined;
}

function layerViolations(graph: Map<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = placeOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = placeOf(target);
      const problem = to && layerProblem(from, to);
      if (problem) violations.push(`${relative(file)} -> ${relative(target)}: ${problem}`);
    }
  }
  return violations.sort();
}

describe('the import graph of the product code', () => {
  const graph = buildGraph();

  it('is read: it holds the files of every floor and the imports between them', () => {
    const floors = new Set([...graph.keys()].map((file) => placeOf(file)?.floor));
    expect(floors).toEqual(new Set(FLOOR_ORDER));
    expect([...graph.keys()].some((file) => TEST_FILE.test(file))).toBe(false);
    const ledger = path.join(repoRoot, 'libs/services/audit-ledger/src/application/ledger.ts');
    expect(graph.get(ledger)).toEqual(expect.arrayContaining([path.join(repoRoot, 'libs/contracts/src/index.ts'), path.join(repoRoot, 'libs/services/audit-ledger/src/application/chain-append.ts')]));
    expect(unresolved).toEqual([]);
  });

  it('has no circle', () => {
    expect(circlesOf(graph)).toEqual([]);
  });

  it('imports only downwards: contracts < connector SDK < platform < services < apps, and within a service domain < application, infrastructure < api, events', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  // The checks themselves, on small graphs: they must be able to fail.
  it('finds a circle and an upward import when there is one', () => {
    const at = (file: string): string => path.join(repoRoot, file);
    const a = at('libs/services/notifier/src/application/a.ts');
    const b = at('libs/services/notifier/src/application/b.ts');
    const entity = at('libs/services/notifier/src/domain/rules.ts');
    const controller = at('libs/services/notifier/src/api/c.controller.ts');
    const platform = at('libs/platform/http/src/index.ts');
    const service = at('libs/services/verification/src/index.ts');
    const tiny = new Map([
      [a, [b, controller]],
      [b, [a]],
      [entity, [a]],
      [controller, [a]],
      [platform, [service]],
      [service, []],
    ]);
    expect(circlesOf(tiny)).toEqual([['libs/services/notifier/src/api/c.controller.ts', 'libs/services/notifier/src/application/a.ts', 'libs/services/notifier/src/application/b.ts']]);
    expect(layerViolations(tiny)).toEqual([
      'libs/platform/http/src/index.ts -> libs/services/verification/src/index.ts: platform imports service',
      'libs/services/notifier/src/application/a.ts -> libs/services/notifier/src/api/c.controller.ts: application imports api',
      'libs/services/notifier/src/domain/rules.ts -> libs/services/notifier/src/application/a.ts: domain imports application',
    ]);
  });
});
