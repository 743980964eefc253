import { z } from 'zod';
import { parseInput } from '@dsar/platform/http';
import type { GatewayRoute } from './routes';

/** The query of a route that publishes no parameter: none is taken. */
const NO_PARAMETERS = z.strictObject({});

/**
 * A call's query parameters against the ones its route publishes, before the call is forwarded: an unknown one (a
 * misspelt filter would otherwise be dropped in silence and the answer look complete) or a value that breaks its rule
 * is 400 REQUEST_VALIDATION_FAILED naming each (docs/security.md, "Input rules"). `query` is the query as Express
 * parsed it, the same way the owning service parses it again.
 */
export function assertPublishedQuery(route: GatewayRoute, query: unknown): void {
  parseInput(route.query ?? NO_PARAMETERS, query, 'query');
}

/** Whether a query schema refuses the parameters it does not name: a zod object whose unknown keys are `never`. */
function refusesUnknownParameters(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; catchall?: z.ZodType };
  return def.type === 'object' && def.catchall?._zod.def.type === 'never';
}

/** What is wrong with the queries of a route table: each published query is a strict object (`z.strictObject`). */
export function queryProblems(routes: readonly GatewayRoute[]): string[] {
  return routes.filter((r) => r.query && !refusesUnknownParameters(r.query)).map((r) => `${r.method} ${r.path}: its query is not a z.strictObject (an unknown parameter would pass)`);
}
