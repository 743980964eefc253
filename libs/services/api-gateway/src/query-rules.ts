import { z } from 'zod';
import { parseInput } from '@dsar/platform/http';
import type { GatewayRoute } from './route-types';

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
