import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { builtInPolicyPacks, CLOCK_MODES, compareVersions, type PolicyPack, policyPackSchema } from '@dsar/contracts';

/**
 * Writes what pack authors read, both generated from the code:
 *
 * - docs/policy-packs/policy-pack.schema.json, `policyPackSchema` as JSON
 *   Schema (draft 2020-12), to validate a pack with any JSON Schema tool;
 * - the table of built-in packs in docs/policy-packs/README.md.
 *
 * Unit tests fail when either is out of date (policy-schema-doc.spec.ts here,
 * policy-packs-doc.spec.ts in libs/contracts):
 *
 *   node tools/scripts/run-ts.cjs tools/scripts/export-policy-schema.ts
 */
export const POLICY_DOCS_DIR = path.resolve(__dirname, '../../docs/policy-packs');
export const POLICY_SCHEMA_PATH = path.join(POLICY_DOCS_DIR, 'policy-pack.schema.json');
export const POLICY_README_PATH = path.join(POLICY_DOCS_DIR, 'README.md');
export const POLICY_SCHEMA_ID = 'https://dsar.dev/schemas/policy-pack.schema.json';
/** The heading whose table lists the built-in packs. */
export const BUILT_IN_TABLE_HEADING = '## Built-in packs';

type JsonSchema = Record<string, unknown>;

/** The published JSON Schema of a policy pack document. */
export function buildPolicyPackJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(policyPackSchema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  const defs = { ...((generated.$defs ?? {}) as Record<string, JsonSchema>) };
  // The pack carries a schema id, so zod emits it as a definition behind a root $ref: make it the root itself.
  let root: JsonSchema = generated;
  if (generated.$ref === '#/$defs/PolicyPack' && defs.PolicyPack) {
    root = defs.PolicyPack;
    delete defs.PolicyPack;
  }
  const { $schema: _schema, $defs: _defs, $ref: _ref, id: _id, title: _title, description: _description, ...body } = root;
  if (JSON.stringify(defs).includes('"#/$defs/PolicyPack"')) throw new Error('a definition refers back to the pack root; inline it by hand');

  // The one rule zod's refinement holds that JSON Schema cannot take from it: the default clock mode must be allowed.
  const properties = body.properties as Record<string, JsonSchema>;
  properties.clockModes = {
    ...properties.clockModes,
    anyOf: CLOCK_MODES.map((mode) => ({ properties: { default: { const: mode }, allowed: { type: 'array', contains: { const: mode } } } })),
  };

  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: POLICY_SCHEMA_ID,
    title: 'DSAR policy pack',
    description:
      "The deadline rules of one law as versioned data, read by the DSAR service's legal clock; every field is described " +
      'in docs/policy-packs/README.md. The service also checks, when it loads a pack, what JSON Schema cannot: that the ' +
      'time zones and holiday calendars exist.',
    ...body,
    $defs: defs,
  };
}

/** The schema file's exact content: pretty JSON, two spaces, trailing newline. */
export function renderPolicyPackSchemaJson(): string {
  return `${JSON.stringify(buildPolicyPackJsonSchema(), null, 2)}\n`;
}

/**
 * The Markdown table of built-in packs, as the README holds it: every version, by packId and then by
 * version (numeric semver order), with the date from which it applies.
 */
export function renderBuiltInPackTable(packs: readonly PolicyPack[] = builtInPolicyPacks()): string {
  const rows = [...packs]
    .sort((x, y) => x.packId.localeCompare(y.packId) || compareVersions(x.version, y.version))
    .map((p) => `| \`${p.packId}\` | ${p.name} | ${p.jurisdictions.map((j) => j.code).join(', ')} | ${p.version} | ${p.effectiveFrom} |`);
  return ['| Pack | Name | Jurisdictions | Version | Effective from |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The README with its built-in pack table replaced by one generated from the built-in packs. */
export function withBuiltInPackTable(readme: string, table = renderBuiltInPackTable()): string {
  const lines = readme.split('\n');
  const heading = lines.findIndex((l) => l.trim() === BUILT_IN_TABLE_HEADING);
  if (heading < 0) throw new Error(`docs/policy-packs/README.md has no "${BUILT_IN_TABLE_HEADING}" heading`);
  const start = lines.findIndex((l, i) => i > heading && (l.trim().startsWith('|') || /^#{1,2} /.test(l)));
  if (start < 0 || !lines[start].trim().startsWith('|')) throw new Error(`no table under "${BUILT_IN_TABLE_HEADING}" in docs/policy-packs/README.md`);
  let end = start;
  while (end < lines.length && lines[end].trim().startsWith('|')) end++;
  return [...lines.slice(0, start), table, ...lines.slice(end)].join('\n');
}

async function main(): Promise<void> {
  await writeFile(POLICY_SCHEMA_PATH, renderPolicyPackSchemaJson());
  await writeFile(POLICY_README_PATH, withBuiltInPackTable(await readFile(POLICY_README_PATH, 'utf8')));
  for (const file of [POLICY_SCHEMA_PATH, POLICY_README_PATH]) process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
}

// Run only as the entry point (run-ts.cjs puts it in argv[1]), not when a test imports the helpers above.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  main().catch((e) => {
    process.stderr.write(`export-policy-schema failed: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
