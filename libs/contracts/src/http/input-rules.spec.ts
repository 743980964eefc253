import { z } from 'zod';
import * as contracts from '../index';
import { TIMESTAMP_PATTERN } from './fields';
import {
  acknowledgementCommand,
  appealCommand,
  appealDecisionCommand,
  auditCheckpointQuery,
  auditExportQuery,
  auditVerifyCommand,
  authorityApproveCommand,
  authorityRejectCommand,
  authoritySubmitCommand,
  clarificationReceiveCommand,
  clarificationRequestCommand,
  closureCommand,
  extensionCommand,
  INTAKE_JURISDICTIONS,
  intakePayload,
  pauseCommand,
  policyListQuery,
  policyPackQuery,
  queueQuery,
  refusalCommand,
  requestDetail,
  requestorCommand,
  resumeCommand,
} from './index';
import { supportedJurisdictions } from '../policy/jurisdictions';

type Json = Record<string, unknown>;

/** Every schema node of a JSON Schema, with its path. */
function* nodesOf(node: unknown, path = '#'): Generator<[string, Json]> {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) yield* nodesOf(n, `${path}/${i}`);
    return;
  }
  yield [path, node as Json];
  for (const [k, v] of Object.entries(node)) yield* nodesOf(v, `${path}/${k}`);
}

const jsonOf = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });

/** Every zod schema the contracts library exports (HTTP contracts, events, policy packs). */
const exported: [string, z.ZodType][] = Object.entries(contracts as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);

/** The bodies and queries clients send: the input side of the public API. */
const INPUTS: Record<string, z.ZodType> = {
  intakePayload,
  acknowledgementCommand,
  clarificationRequestCommand,
  clarificationReceiveCommand,
  refusalCommand,
  closureCommand,
  requestorCommand,
  authoritySubmitCommand,
  authorityApproveCommand,
  authorityRejectCommand,
  appealCommand,
  appealDecisionCommand,
  extensionCommand,
  pauseCommand,
  resumeCommand,
  auditVerifyCommand,
  queueQuery,
  auditExportQuery,
  auditCheckpointQuery,
  policyListQuery,
  policyPackQuery,
};

/** A zod schema's own checks and the schemas inside it (zod 4 internals: `_zod.def`). */
type Def = { type: string; checks?: { _zod: { def: Record<string, unknown> } }[] } & Record<string, unknown>;
function* zodNodesOf(schema: z.ZodType, seen = new Set<unknown>()): Generator<Def> {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  yield def;
  const children: unknown[] = [];
  if (def.type === 'object') children.push(...Object.values(def.shape as Record<string, unknown>));
  for (const key of ['innerType', 'in', 'out', 'element', 'keyType', 'valueType', 'left', 'right']) if (def[key]) children.push(def[key]);
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) children.push(...(def[key] as unknown[]));
  for (const child of children) if (child instanceof z.ZodType) yield* zodNodesOf(child, seen);
}

describe('input rules across the contracts', () => {
  it('finds the contracts it checks', () => {
    expect(exported.length).toBeGreaterThan(40);
  });

  it('every timestamp of every contract is the one timestamp type (1970–2999, exact instants)', () => {
    const strays: string[] = [];
    for (const [name, schema] of exported) {
      for (const [path, node] of nodesOf(jsonOf(schema))) {
        if (node.format === 'date-time' && node.pattern !== TIMESTAMP_PATTERN.source) strays.push(`${name} ${path}`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('every string a client sends is constrained: an enum, a format or a pattern (the text rule at least)', () => {
    const loose: string[] = [];
    for (const [name, schema] of Object.entries(INPUTS)) {
      for (const [path, node] of nodesOf(jsonOf(schema))) {
        if (node.type !== 'string') continue;
        const constrained = node.enum !== undefined || node.const !== undefined || node.format !== undefined || node.pattern !== undefined || node.allOf !== undefined;
        if (!constrained) loose.push(`${name} ${path}`);
      }
    }
    expect(loose).toEqual([]);
  });

  it('no text a client sends may hold NUL: every published string pattern refuses it', () => {
    for (const [name, schema] of Object.entries(INPUTS)) {
      for (const [path, node] of nodesOf(jsonOf(schema))) {
        if (node.type !== 'string' || node.enum !== undefined) continue;
        const patterns = [node.pattern, ...((node.allOf as Json[] | undefined) ?? []).map((p) => p.pattern)].filter((p): p is string => typeof p === 'string');
        const refusesNul = patterns.some((p) => !new RegExp(p).test('ok\u0000ok') && !new RegExp(p).test('\u0000'));
        expect([name, path, refusesNul || node.format === 'email']).toEqual([name, path, true]);
      }
    }
  });

  it('every regular expression of the contracts carries a message naming the expected form', () => {
    const bare: string[] = [];
    let regexes = 0;
    for (const [name, schema] of exported) {
      for (const def of zodNodesOf(schema)) {
        for (const check of def.checks ?? []) {
          const c = check._zod.def;
          if (c.check !== 'string_format' || c.format !== 'regex') continue;
          regexes++;
          if (c.error === undefined) bare.push(`${name}: ${String(c.pattern)}`);
        }
      }
    }
    expect(regexes).toBeGreaterThan(20);
    expect(bare).toEqual([]);
  });
});

describe('what the OpenAPI document promises', () => {
  it('publishes the jurisdictions of the catalog, in capitals and small letters', () => {
    const json = jsonOf(intakePayload) as { $defs?: Record<string, Json>; properties?: Record<string, Json> };
    const props = (json.properties ?? (Object.values(json.$defs ?? {})[0] as { properties: Record<string, Json> }).properties) as Record<string, Json>;
    expect(props.jurisdiction.enum).toEqual(INTAKE_JURISDICTIONS);
    expect(INTAKE_JURISDICTIONS).toEqual(expect.arrayContaining([...supportedJurisdictions(), 'de', 'us-ca']));
    expect(intakePayload.shape.jurisdiction.parse('us-ca')).toBe('US-CA');
  });

  it('says that the two extension amounts exclude each other, as the server checks', () => {
    const json = JSON.stringify(jsonOf(extensionCommand));
    expect(json).toContain('"not":{"required":["additionalDays","additionalMonths"]}');
    expect(extensionCommand.safeParse({ additionalDays: 5, additionalMonths: 1 }).success).toBe(false);
  });

  it("takes the queue's status filter exactly as its pattern says", () => {
    const status = queueQuery.shape.status;
    for (const ok of ['received', 'received,in_progress', ' received , refused ', 'received,,closed', ',fulfilled']) expect([ok, status.safeParse(ok).success]).toEqual([ok, true]);
    for (const bad of ['', ',', 'open', 'received,open', 'RECEIVED', 'received\u0000']) expect([bad, status.safeParse(bad).success]).toEqual([bad, false]);
  });

  it('publishes the limits of the query parameters', () => {
    const json = JSON.stringify(jsonOf(queueQuery));
    expect(json).toContain('"pattern":"^(?:[1-9]|[1-9]\\\\d|1\\\\d{2}|200)$"');
  });
});

describe('refusal command', () => {
  it('takes {}: reason `other`, message and rationale left to the service', () => {
    expect(refusalCommand.parse({})).toEqual({ reason: 'other' });
    expect(refusalCommand.parse({ reason: 'excessive', message: ' Too many. ', rationale: 'x' })).toEqual({ reason: 'excessive', message: 'Too many.', rationale: 'x' });
    expect(refusalCommand.safeParse({ message: 'a\u0000b' }).success).toBe(false);
  });
});

describe('request detail', () => {
  it('always has a requestor with a type', () => {
    expect(requestDetail.shape.requestor.safeParse(null).success).toBe(false);
    expect(requestDetail.shape.requestor.parse({ type: 'subject' })).toEqual({ type: 'subject' });
  });
});

describe('audit verify command', () => {
  it('says what a hash looks like', () => {
    const result = auditVerifyCommand.safeParse({ hash: 'abc', sequence: 1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('must be sha256: followed by 64 lowercase hex digits');
  });
});
