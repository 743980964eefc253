import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { builtInPolicyPacks, policyPackSchema } from '@dsar/contracts';
import { POLICY_README_PATH, POLICY_SCHEMA_ID, POLICY_SCHEMA_PATH, renderPolicyPackSchemaJson, withBuiltInPackTable } from './export-policy-schema';

/**
 * docs/policy-packs/policy-pack.schema.json is what authors of packs validate
 * against: it must be exactly the schema generated from `policyPackSchema`,
 * every built-in pack file must pass it under a real JSON Schema validator,
 * and it must reject broken packs.
 */

const REGENERATE = 'node tools/scripts/run-ts.cjs tools/scripts/export-policy-schema.ts';
const PACKS_DIR = path.resolve(__dirname, '../../libs/contracts/src/policy/packs');

type Json = Record<string, any>;

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const packFiles = (): string[] =>
  readdirSync(PACKS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
}

describe('docs/policy-packs/policy-pack.schema.json', () => {
  it('is the schema generated from policyPackSchema (regenerate it when the schema changes)', () => {
    let committed: string;
    try {
      committed = readFileSync(POLICY_SCHEMA_PATH, 'utf8');
    } catch {
      throw new Error(`${path.relative(process.cwd(), POLICY_SCHEMA_PATH)} is missing: run \`${REGENERATE}\``);
    }
    if (committed !== renderPolicyPackSchemaJson()) {
      throw new Error(`docs/policy-packs/policy-pack.schema.json differs from the generated schema: run \`${REGENERATE}\``);
    }
  });

  it('is a draft 2020-12 schema with its $id, title and description', () => {
    const schema = readJson(POLICY_SCHEMA_PATH);
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: POLICY_SCHEMA_ID, title: expect.any(String), description: expect.any(String), type: 'object' });
  });

  it('has its README table of built-in packs up to date', () => {
    const readme = readFileSync(POLICY_README_PATH, 'utf8');
    if (withBuiltInPackTable(readme) !== readme) throw new Error(`the built-in pack table of docs/policy-packs/README.md is out of date: run \`${REGENERATE}\``);
  });

  it('names every field of the schema in docs/policy-packs/README.md', () => {
    const readme = readFileSync(POLICY_README_PATH, 'utf8');
    const fields = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === 'properties' && v !== null && typeof v === 'object') Object.keys(v).forEach((name) => fields.add(name));
          walk(v);
        }
      }
    };
    walk(readJson(POLICY_SCHEMA_PATH));
    expect([...fields].filter((f) => !readme.includes(`\`${f}\``))).toEqual([]);
  });
});

describe('built-in pack files against the published JSON Schema (Ajv, draft 2020-12)', () => {
  let validate: ValidateFunction;
  beforeAll(() => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validate = ajv.compile(readJson(POLICY_SCHEMA_PATH));
  });
  const accepts = (pack: unknown) => {
    const ok = validate(pack);
    return { ok, errors: describeErrors(validate.errors) };
  };

  it('finds the pack files', () => {
    expect(packFiles()).toEqual(expect.arrayContaining(['eu-gdpr.json', 'us-ca-ccpa.json']));
  });

  it.each(packFiles())('%s is valid', (file) => {
    expect(accepts(readJson(path.join(PACKS_DIR, file)))).toEqual({ ok: true, errors: [] });
  });

  it('every pack file is shipped: listed once among the built-in packs', () => {
    const shipped = builtInPolicyPacks()
      .map((p) => `${p.packId}@${p.version}`)
      .sort();
    const files = packFiles()
      .map((f) => readJson(path.join(PACKS_DIR, f)))
      .map((p) => `${String(p.packId)}@${String(p.version)}`)
      .sort();
    expect(files).toEqual(shipped);
  });

  describe('rejects broken packs', () => {
    const base = () => structuredClone(readJson(path.join(PACKS_DIR, 'eu-gdpr.json')));
    const broken: [string, (p: Json) => void, string][] = [
      ['a rule without its period', (p) => delete p.rules.default.period, "must have required property 'period'"],
      ['an unknown pause rule', (p) => (p.rules.default.pauses.verification = 'freeze'), 'must be equal to one of the allowed values'],
      ['a version that is not MAJOR.MINOR.PATCH', (p) => (p.version = '1.0'), 'must match pattern'],
      ['an unknown field', (p) => (p.rules.default.period.roundUp = true), 'must NOT have additional properties'],
      ['an override for an unknown request type', (p) => (p.rules.overrides.complaint = { period: p.rules.default.period }), 'must NOT have additional properties'],
      ['a publication time without a zone', (p) => (p.publishedAt = '2026-11-21T00:00:00'), 'must match'],
      ['an effective date that is not a date', (p) => (p.effectiveFrom = '2018-02-30'), 'must match'],
      ['a citation url that is not a URI', (p) => (p.citations[0].url = 'not a uri'), 'must match format "uri"'],
      ['a period of zero days', (p) => (p.rules.default.period.amount = 0), 'must be > 0'],
      ['a default clock mode that is not allowed', (p) => (p.clockModes = { default: 'active', allowed: ['receipt'] }), 'must match a schema in anyOf'],
      ['no jurisdictions', (p) => (p.jurisdictions = []), 'must NOT have fewer than 1 items'],
    ];

    it.each(broken)('%s', (_case, breakIt, message) => {
      const pack = base();
      breakIt(pack);
      const { ok, errors } = accepts(pack);
      expect(ok).toBe(false);
      expect(errors.join('\n')).toContain(message);
      // The service's own schema agrees.
      expect(policyPackSchema.safeParse(pack).success).toBe(false);
    });

    it('while the unbroken pack passes', () => {
      expect(accepts(base()).ok).toBe(true);
    });
  });
});
