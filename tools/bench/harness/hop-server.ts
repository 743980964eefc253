import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { hostService, quietHostConfig } from '@dsar/platform/host';

/**
 * One server of the hop benchmark, as its own process (`node tools/scripts/run-ts.cjs tools/bench/harness/hop-server.ts`):
 * POST /internal/v1/hop takes a JSON body and answers 201 with a fixed JSON document, the shape of a create's answer.
 * HOP_SERVER says which stack serves it:
 *
 *   node-http      Node's http server, JSON.parse and a written answer: the floor of any HTTP hop;
 *   nest-express   a Nest application on its default adapter (Express), its own JSON body parser, no middleware;
 *   nest-fastify   the same application on @nestjs/platform-fastify;
 *   service-host   the same controller hosted as every service of the product is (`hostService`): metrics, the request
 *                  target check, the internal identity's signature, the strict JSON body, the request context, the
 *                  problem filter and one log line per request (LOG_LEVEL info, to stdout).
 *
 * It listens on 127.0.0.1:PORT; GET /health/ready answers 200 once it does (the host's own health route in
 * service-host).
 */

const HOP_PATH = '/internal/v1/hop';

/** The answer of every variant: about the size of the answer to a create. */
const HOP_ANSWER = {
  id: '0193a4c2-8a7e-7cc1-9d3e-5f1b2a3c4d5e',
  status: 'received',
  type: 'access',
  jurisdiction: 'GDPR',
  receivedAt: '2026-12-03T10:00:00.000Z',
  dueAt: '2027-01-03T10:00:00.000Z',
  links: { self: '/api/v1/requests/0193a4c2-8a7e-7cc1-9d3e-5f1b2a3c4d5e', timeline: '/api/v1/requests/0193a4c2-8a7e-7cc1-9d3e-5f1b2a3c4d5e/timeline' },
};

@Controller('internal/v1/hop')
class HopController {
  @Post()
  @HttpCode(201)
  create(@Body() body: unknown): typeof HOP_ANSWER {
    if (typeof body !== 'object' || body === null) throw new Error('the hop takes a JSON object');
    return HOP_ANSWER;
  }
}

@Controller('health')
class ReadyController {
  @Get('ready')
  ready(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({ controllers: [HopController] })
class HopModule {}

/** The bare applications: the hop and a readiness route (a hosted service has the host's). */
@Module({ imports: [HopModule], controllers: [ReadyController] })
class BareModule {}

const PORT = Number(process.env.PORT ?? 0);

function nodeHttp(): Promise<void> {
  const answer = JSON.stringify(HOP_ANSWER);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/health/ready') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (req.method !== 'POST' || req.url !== HOP_PATH || typeof body !== 'object') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((ok) => server.listen(PORT, '127.0.0.1', () => ok()));
}

async function start(variant: string): Promise<unknown> {
  switch (variant) {
    case 'node-http':
      return nodeHttp();
    case 'nest-express':
      return (await NestFactory.create(BareModule, { logger: false })).listen(PORT, '127.0.0.1');
    case 'nest-fastify': {
      // Loaded only here: the other variants run without Fastify in the process.
      const { FastifyAdapter } = await import('@nestjs/platform-fastify');
      return (await NestFactory.create(BareModule, new FastifyAdapter(), { logger: false })).listen(PORT, '127.0.0.1');
    }
    case 'service-host': {
      const key = process.env.INTERNAL_AUTH_KEY;
      if (!key) throw new Error('INTERNAL_AUTH_KEY is required with HOP_SERVER=service-host');
      return hostService({ name: 'hop', module: HopModule, persistence: false }, quietHostConfig({ LOG_LEVEL: 'info', PORT, INTERNAL_AUTH_KEY: key }));
    }
    default:
      throw new Error(`HOP_SERVER must be node-http, nest-express, nest-fastify or service-host, not ${variant}`);
  }
}

// An exit of its own on SIGTERM, so that a CPU profile asked for (BENCH_CPU_PROF_DIR) is written.
process.once('SIGTERM', () => process.exit(0));

start(process.env.HOP_SERVER ?? '').catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
