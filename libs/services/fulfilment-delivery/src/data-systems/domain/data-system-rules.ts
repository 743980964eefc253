import { DEFAULT_SLA, type DataSystemPut, type DataSystemView } from '@dsar/contracts';
import type { FieldProblem } from '@dsar/platform/errors';

/** What a row keeps of a system's definition: the PUT body with its defaults filled in, the webhook without its secret. */
export type DataSystemDefinition = Omit<DataSystemView, 'key' | 'version' | 'createdAt' | 'updatedAt' | 'webhook'> & { webhook: { url: string } | null };

/**
 * The pure rules of the data-system registry (docs/data-systems.md#the-registry): the stored definition of a PUT body,
 * and what makes a definition not hold together (422 DATA_SYSTEM_INVALID), whatever the body's form allowed.
 */

/** Hops of a cycle a problem names at most: the message stays short however long the cycle is. */
const MAX_CYCLE_HOPS = 10;

/** The definition a PUT body stores: its defaults filled in, the webhook without its secret, absent owner fields left out. */
export function definitionOf(body: DataSystemPut): DataSystemDefinition {
  return {
    displayName: body.displayName,
    owner: {
      ...(body.owner.email !== undefined ? { email: body.owner.email } : {}),
      ...(body.owner.slackChannel !== undefined ? { slackChannel: body.owner.slackChannel } : {}),
    },
    actions: [...body.actions],
    identityTypes: [...body.identityTypes],
    dataCategories: [...(body.dataCategories ?? [])],
    after: [...(body.after ?? [])],
    mode: body.mode,
    sla: { ...(body.sla ?? DEFAULT_SLA) },
    paused: body.paused ?? false,
    required: body.required ?? true,
    webhook: body.webhook ? { url: body.webhook.url } : null,
  };
}

/** What the check of one definition needs of the tenant's other live systems: whom each comes after. */
export type LiveSystems = ReadonlyMap<string, readonly string[]>;

/**
 * Why the definition of `key` cannot be stored, as field problems (empty: it can): an `after` that names no live
 * system of the tenant, an `after` that closes a cycle, `webhook` missing for mode `webhook` or given for another
 * mode, an `http:` webhook URL where only https is allowed, and `sla.timeoutHours` below `sla.expectedHours`.
 * `others` are the tenant's live systems other than `key` (its stored definition, if any, is the one replaced).
 */
export function definitionProblems(key: string, body: DataSystemPut, others: LiveSystems, options: { allowHttp: boolean }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const after = body.after ?? [];
  after.forEach((other, i) => {
    if (other === key) problems.push({ field: `after[${i}]`, message: 'a system cannot come after itself' });
    else if (!others.has(other)) problems.push({ field: `after[${i}]`, message: `names no data system of the tenant: ${other}` });
  });
  // Only the edges of `key` change, so a new cycle goes through `key`; one is looked for only among known systems.
  if (problems.length === 0) {
    const cycle = cycleThrough(key, after, others);
    if (cycle) problems.push({ field: 'after', message: `makes a cycle: ${describeCycle(cycle)}` });
  }
  // The schema cannot say "one of the two at least": the owner must be reachable for reminders.
  if (body.owner.email === undefined && body.owner.slackChannel === undefined) problems.push({ field: 'owner', message: 'must name an email address or a Slack channel' });
  if (body.mode === 'webhook' && body.webhook === undefined) problems.push({ field: 'webhook', message: 'is required with mode webhook (url and secret)' });
  if (body.mode !== 'webhook' && body.webhook !== undefined) problems.push({ field: 'webhook', message: `is only for mode webhook, not ${body.mode}` });
  // The schema gives the URL's form; whether it parses as a URL (a host name's rules) is the registry's check.
  if (body.webhook !== undefined && !URL.canParse(body.webhook.url)) problems.push({ field: 'webhook.url', message: 'is not a valid URL' });
  else if (body.mode === 'webhook' && body.webhook !== undefined && !options.allowHttp && new URL(body.webhook.url).protocol !== 'https:') {
    problems.push({ field: 'webhook.url', message: 'must be an https URL (DATA_SYSTEM_WEBHOOK_ALLOW_HTTP is off)' });
  }
  const sla = body.sla ?? DEFAULT_SLA;
  if (sla.timeoutHours < sla.expectedHours) problems.push({ field: 'sla.timeoutHours', message: `must be at least sla.expectedHours (${sla.expectedHours})` });
  return problems;
}

/**
 * A cycle through `key` once its `after` is `after` (the others' as given): `[key, …, key]` following "comes after",
 * or null. A breadth-first walk from `key`'s dependencies, each system visited once: linear in systems and edges.
 */
export function cycleThrough(key: string, after: readonly string[], others: LiveSystems): string[] | null {
  const cameFrom = new Map<string, string>();
  const queue: string[] = [];
  for (const next of after) {
    if (next === key) return [key, key];
    if (!cameFrom.has(next)) {
      cameFrom.set(next, key);
      queue.push(next);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const next of others.get(node) ?? []) {
      if (next === key) {
        const path = [key];
        for (let at: string = node; at !== key; at = cameFrom.get(at) as string) path.push(at);
        path.push(key);
        // Walked back from the end: the path from key onwards is its reverse, closed by key.
        return [key, ...path.slice(1, -1).reverse(), key];
      }
      if (!cameFrom.has(next) && next !== key) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}

function describeCycle(cycle: readonly string[]): string {
  const shown = cycle.length > MAX_CYCLE_HOPS + 1 ? [...cycle.slice(0, MAX_CYCLE_HOPS), '…', cycle[cycle.length - 1]] : cycle;
  return shown.join(' → ');
}

/** The live systems that come after `key` (which must not be deleted while they do), sorted. */
export function dependantsOf(key: string, others: LiveSystems): string[] {
  return [...others.entries()]
    .filter(([other, after]) => other !== key && after.includes(key))
    .map(([other]) => other)
    .sort();
}

/** The view of a stored system: its definition with the webhook's secret shown as set. */
export function viewOf(row: { key: string; version: number; definition: DataSystemDefinition; createdAt: Date; updatedAt: Date }): DataSystemView {
  const { webhook, ...definition } = row.definition;
  return {
    key: row.key,
    ...definition,
    ...(webhook ? { webhook: { url: webhook.url, secretSet: true as const } } : {}),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
