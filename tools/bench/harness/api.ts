import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { bodyFrom, runLoad, type LoadSummary } from './load';
import { Proc, waitReady } from './process';
import { freePort } from '@dsar/platform/testing';

/** The product's API as the benchmarks call it, and the floor server beside it. */

/**
 * The body of every create: a German request from a web form, as a person would type it (no requestType: the
 * intake infers it from the words, as it does for most web forms), received a minute before the run started.
 * Every create comes from the same person unless `email` names another.
 */
export function createBody(receivedAt: Date, email = 'jane@example.org'): string {
  return JSON.stringify({
    jurisdiction: 'DE',
    intakeSource: {
      channel: 'web_form',
      rawText: 'Please send me a copy of all personal data you hold about me.',
      receivedAt: receivedAt.toISOString(),
      contact: email,
    },
    requestor: { type: 'subject', name: 'Jane Doe', email },
  });
}

/** A create's body from person `n` (`person-<n>@<domain>`): creates of distinct `n` never share an identity, which would make them duplicates of each other. */
export const peopleBodies =
  (receivedAt: Date, domain: string) =>
  (n: number): string =>
    createBody(receivedAt, `person-${n}@${domain}`);

/** The bodies of `bodyOf` in turn, from the first: each call the next one, across every run it is used in. */
export function inTurn(bodyOf: (n: number) => string): () => string {
  let n = 0;
  return () => bodyOf(n++);
}

export const jsonHeaders = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** Creates `count` requests through the gateway, `connections` at a time; the ids of the 202s. `body` is one body for all, or a function of a counter that gives each create its own. */
export async function createRequests(url: string, token: string, body: string | ((n: number) => string), count: number, connections: number): Promise<{ ids: string[]; summary: LoadSummary }> {
  const ids: string[] = [];
  const request: AutocannonRequest = {
    method: 'POST',
    path: '/api/v1/requests',
    headers: jsonHeaders(token),
    ...(typeof body === 'string' ? { body } : { setupRequest: bodyFrom(inTurn(body)) }),
    onResponse: (status, text) => {
      if (status !== 202) return;
      try {
        const id = (JSON.parse(text) as { id?: unknown }).id;
        if (typeof id === 'string') ids.push(id);
      } catch {
        /* counted as missing below */
      }
    },
  };
  const summary = await runLoad({ url, connections: Math.min(connections, count), amount: count, requests: [request] });
  return { ids, summary };
}

export interface Floor {
  url: string;
  proc: Proc;
}

/** Starts the floor server (tools/bench/harness/floor-server.ts) on a free port. */
export async function startFloor(driver: { pg: string } | { pglite: string }, logDir: string): Promise<Floor> {
  const port = await freePort();
  const env: Record<string, string> =
    'pg' in driver ? { FLOOR_DRIVER: 'pg', FLOOR_DATABASE_URL: driver.pg, PORT: String(port) } : { FLOOR_DRIVER: 'pglite', FLOOR_DATA_DIR: driver.pglite, PORT: String(port) };
  const name = `floor-${'pg' in driver ? 'pg' : 'pglite'}`;
  const proc = Proc.node(name, 'tools/bench/harness/floor-server.ts', env, join(logDir, `${name}.log`));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady([url], [proc], 60_000);
  } catch (e) {
    await proc.stop();
    throw e;
  }
  return { url, proc };
}
