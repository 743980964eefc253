import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePort } from '@dsar/platform/testing';
import { InternalAuthKey, signedIdentityHeaders } from '@dsar/platform/http';
import { figure } from '../harness/figures';
import { measuredLoad, runLoad } from '../harness/load';
import { Proc, waitReady } from '../harness/process';
import type { Benchmark, Figure } from '../harness/types';

/**
 * hop: what one HTTP hop between the services costs, by the stack that serves it (ADR 0048). A create crosses three
 * servers of ours (api-gateway, intake-gateway, lifecycle-clock), each a hop of this kind; this benchmark tells how
 * much of a hop is the framework and its adapter, and so what another adapter would buy.
 */

/** The route every variant of tools/bench/harness/hop-server.ts serves. */
const HOP_PATH = '/internal/v1/hop';

const VARIANTS = [
  { name: 'node-http', label: "Node's http server (the floor of a hop)" },
  { name: 'nest-express', label: 'Nest on Express (its default adapter), no middleware' },
  { name: 'nest-fastify', label: 'Nest on Fastify (@nestjs/platform-fastify), no middleware' },
  { name: 'service-host', label: "a service's host as the product runs it (Express, with the platform's middleware and log line)" },
] as const;

/** A create's body as intake-gateway sends it to lifecycle-clock, near enough in size and shape. */
const BODY = JSON.stringify({
  jurisdiction: 'GDPR',
  requestType: 'access',
  intakeSource: { channel: 'web_form', rawText: `Please send me a copy of all the personal data you hold about me. ${'I have been your customer since 2019. '.repeat(8)}` },
  requestor: { email: 'hop.person@example.org', name: 'Hop Person', accountIds: ['cust-0001'] },
});

export const hop: Benchmark = {
  name: 'hop',
  summary: 'CPU of one HTTP hop by stack: node:http, Nest on Express, Nest on Fastify, the service host as it runs',
  inDefault: false,
  needsInfra: false,
  async run(ctx) {
    const key = randomBytes(32).toString('base64url');
    const cpu = new Map<string, number[]>();
    const rates = new Map<string, number[]>();
    for (let rep = 0; rep < ctx.repeat; rep++) {
      for (const variant of VARIANTS) {
        const port = await freePort();
        const proc = Proc.node(
          `hop-${variant.name}`,
          'tools/bench/harness/hop-server.ts',
          { HOP_SERVER: variant.name, PORT: String(port), INTERNAL_AUTH_KEY: key },
          join(ctx.scratch, `hop-${variant.name}-${rep}.log`),
        );
        try {
          const url = `http://127.0.0.1:${port}`;
          await waitReady([url], [proc], 60_000);
          // Signed for the whole run (the signature holds for a minute): the service host checks it as it checks an internal call.
          const headers = {
            'content-type': 'application/json',
            ...signedIdentityHeaders(InternalAuthKey.from(key), 'POST', HOP_PATH, { id: 'bench-hop', tenantId: 'bench', roles: ['privacy-admin'] }),
          };
          const spec = { url, path: HOP_PATH, method: 'POST' as const, headers, body: BODY, connections: ctx.settings.clients };
          await runLoad({ ...spec, durationS: ctx.settings.warmupS });
          const load = await measuredLoad({ ...spec, durationS: ctx.settings.loadS }, [proc.pid]);
          if (load.ok === 0 || load.errors > 0) throw new Error(`${variant.name}: ${load.ok} answered 2xx, ${load.errors} not (${JSON.stringify(load.statusCodes)})\n${proc.tail()}`);
          cpu.set(variant.name, [...(cpu.get(variant.name) ?? []), load.cpuMsPerOk * 1000]);
          rates.set(variant.name, [...(rates.get(variant.name) ?? []), load.throughput]);
          ctx.log(`    rep ${rep + 1} ${variant.name.padEnd(13)} ${load.throughput.toFixed(0)} calls/s, ${(load.cpuMsPerOk * 1000).toFixed(0)} µs CPU per call, p99 ${load.p99} ms`);
        } finally {
          await proc.stop();
        }
      }
    }
    const figures: Figure[] = [];
    for (const variant of VARIANTS) {
      figures.push(figure(`${variant.name}.cpu`, `${variant.label}: CPU per call`, 'µs', cpu.get(variant.name) ?? []));
      figures.push(figure(`${variant.name}.rate`, `${variant.label}: calls/s at ${ctx.settings.clients} clients`, 'calls/s', rates.get(variant.name) ?? []));
    }
    const per = (name: string, i: number) => (cpu.get(name) ?? [])[i];
    const adapterSaving = (cpu.get('nest-express') ?? []).map((_, i) => per('nest-express', i) - per('nest-fastify', i));
    const platformShare = (cpu.get('service-host') ?? []).map((_, i) => per('service-host', i) - per('nest-express', i));
    figures.push(figure('adapter-saving', 'what Fastify saves per hop against Express (nest-express − nest-fastify)', 'µs', adapterSaving));
    figures.push(figure('platform-share', "the platform's middleware and log line per hop (service-host − nest-express)", 'µs', platformShare));
    return {
      title: 'hop — one HTTP hop by the stack that serves it',
      method:
        `Each stack in its own process (tools/bench/harness/hop-server.ts) serves POST ${HOP_PATH}: a JSON body of ${Buffer.byteLength(BODY)} bytes (a create as intake-gateway sends it) ` +
        `answered 201 with a create's answer. ${ctx.settings.clients} clients (autocannon, keep-alive) for ${ctx.settings.loadS} s after ${ctx.settings.warmupS} s of warm-up; ` +
        'the CPU time of the server process over the 2xx answers. The service host checks the signed identity every call carries, as every internal call of the product does.',
      figures,
      raw: { cpuUs: Object.fromEntries(cpu), callsPerS: Object.fromEntries(rates) },
    };
  },
};
