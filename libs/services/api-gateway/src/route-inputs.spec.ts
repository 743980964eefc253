import { z } from 'zod';
import { ROUTES } from './routes';

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

/** Whether a published string schema refuses NUL: an enum or constant without one, or a pattern (alone or in `allOf`) that never matches it. */
function refusesNul(node: Json): boolean {
  if (node.enum !== undefined) return (node.enum as unknown[]).every((v) => typeof v !== 'string' || !v.includes('\u0000'));
  if (node.const !== undefined) return typeof node.const !== 'string' || !node.const.includes('\u0000');
  const patterns = [node.pattern, ...((node.allOf as Json[] | undefined) ?? []).map((p) => p.pattern)].filter((p): p is string => typeof p === 'string');
  return patterns.some((p) => !new RegExp(p, 'u').test('ok\u0000ok') && !new RegExp(p, 'u').test('\u0000'));
}

/**
 * docs/security.md#input-rules: no string a client sends through a route may
 * hold NUL (U+0000), which PostgreSQL text and jsonb cannot store: a NUL that
 * reached the database would be a 500 with a database error instead of a 400
 * naming the field. Taken from the route table, so a new route is checked by
 * itself. A provider's webhook is not a client's input: its body is signed by
 * the provider and cleaned by the owning service rather than refused (a
 * refusal would only make the provider send it again).
 */
describe('no route takes NUL in a string', () => {
  const inputs = ROUTES.flatMap((route) =>
    [
      ['body', route.body],
      ['query', route.query],
    ].flatMap(([what, schema]) => (schema ? [{ at: `${route.method} ${route.path} ${String(what)}`, schema: schema as z.ZodType }] : [])),
  );

  it('finds the inputs it checks', () => {
    expect(inputs.length).toBeGreaterThan(30);
  });

  it('every string of every body and query published in the OpenAPI document refuses NUL (the email format is checked by the server)', () => {
    const open: string[] = [];
    for (const { at, schema } of inputs) {
      const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
      for (const [path, node] of nodesOf(json)) {
        if (node.type !== 'string' || node.format === 'email') continue;
        if (!refusesNul(node)) open.push(`${at} ${path}`);
      }
    }
    expect(open).toEqual([]);
  });

  it('every checked header of an upload refuses NUL', () => {
    const open = ROUTES.flatMap((route) =>
      Object.entries(route.upload?.headers ?? {}).flatMap(([name, header]) => (header.schema && header.schema.safeParse('a\u0000b').success ? [`${route.path} ${name}`] : [])),
    );
    expect(open).toEqual([]);
  });
});
