import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import request from 'supertest';
import { ProblemError } from '@dsar/platform/errors';
import { type HostConfig, quietHostConfig } from './host-config';
import type { ServiceDefinition } from './service-definition';
import { type HostedService, hostService } from './service-host';

/**
 * What a caller of any service sees when something goes wrong: one
 * problem+json shape with a catalog code, and a request id to quote.
 */

const INTERNAL_SECRET = 'connection to 10.0.0.7 refused (password=hunter2)';

@Controller()
class ProbeController {
  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return body;
  }

  @Get('boom')
  boom(): never {
    throw new Error(INTERNAL_SECRET);
  }

  /** What TypeORM throws when the database went away under a query: the driver's error inside. */
  @Get('database-down')
  databaseDown(): never {
    throw Object.assign(new Error('Query failed'), { name: 'QueryFailedError', driverError: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) });
  }

  @Get('problem')
  problem(): never {
    throw new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', 'detail', undefined, { currentStatus: 'fulfilled' });
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const probeService: ServiceDefinition = { name: 'probe', persistence: false, module: ProbeModule };

/** A 1 KiB body limit makes the 413 case cheap to reach. */
const config: HostConfig = quietHostConfig({ HTTP_BODY_LIMIT: '1kb' });

let hosted: HostedService;
const http = () => request(hosted.app.getHttpServer());

beforeAll(async () => {
  hosted = await hostService(probeService, config);
});

afterAll(async () => {
  await hosted?.close();
});

/** The members every problem body has, and the request id header that matches it. */
function expectProblem(res: request.Response, status: number, code: string, name: string, instance: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text);
  expect(body).toMatchObject({ status, code, name, instance });
  expect(body.type).toMatch(/^https:\/\//);
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.requestId).toBe('string');
  expect(body.requestId.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toBe(body.requestId);
}

describe('JSON bodies', () => {
  it('passes a valid JSON body to the handler', async () => {
    const res = await http().post('/echo').set('Content-Type', 'application/json').send('{"hello":"world","n":[1,2]}');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ hello: 'world', n: [1, 2] });
  });

  it.each([
    ['malformed', '{hello: world}'],
    ['empty', ''],
    ['truncated', '{"hello":"wor'],
  ])('rejects a JSON body that is %s with 400 REQUEST_BODY_INVALID_JSON', async (_kind, body) => {
    const res = await http().post('/echo').set('Content-Type', 'application/json').send(body);
    expectProblem(res, 400, 'SVC-BE-1101', 'REQUEST_BODY_INVALID_JSON', '/echo');
  });

  it('rejects a body over HTTP_BODY_LIMIT with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await http()
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ text: 'x'.repeat(2048) }));
    expectProblem(res, 413, 'SVC-BE-1103', 'PAYLOAD_TOO_LARGE', '/echo');
  });
});

describe('routes and handler errors', () => {
  it('answers an unknown route with 404 ROUTE_NOT_FOUND', async () => {
    const res = await http().get('/no/such/route');
    expectProblem(res, 404, 'SVC-BE-1002', 'ROUTE_NOT_FOUND', '/no/such/route');
  });

  it('turns an unexpected error into 500 INTERNAL_ERROR without internals', async () => {
    const res = await http().get('/boom');
    expectProblem(res, 500, 'SVC-BE-1000', 'INTERNAL_ERROR', '/boom');
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain('10.0.0.7');
    expect(res.body).not.toHaveProperty('stack');
    expect(res.text).not.toMatch(/\.ts:\d+/);
  });

  it('answers a ProblemError with its catalog status, code and extension members', async () => {
    const res = await http().get('/problem');
    expectProblem(res, 409, 'SVC-BE-1401', 'LIFECYCLE_TRANSITION_DISALLOWED', '/problem');
    expect(res.body).toMatchObject({ detail: 'detail', currentStatus: 'fulfilled', title: 'Lifecycle transition disallowed' });
  });
});

describe('request ids', () => {
  it("echoes the caller's x-request-id in the header and the problem body", async () => {
    const res = await http().get('/problem').set('x-request-id', 'caller-req-42');
    expect(res.headers['x-request-id']).toBe('caller-req-42');
    expect(res.body.requestId).toBe('caller-req-42');
  });

  it("echoes the caller's x-request-id on a body the parser rejects", async () => {
    const res = await http().post('/echo').set('x-request-id', 'caller-req-43').set('Content-Type', 'application/json').send('{');
    expect(res.headers['x-request-id']).toBe('caller-req-43');
    expect(JSON.parse(res.text).requestId).toBe('caller-req-43');
  });

  it('gives every response its own id when the caller sends none', async () => {
    const [a, b] = await Promise.all([http().get('/health/live'), http().get('/health/live')]);
    expect(a.headers['x-request-id']).toEqual(expect.any(String));
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('health and metrics', () => {
  it('answers GET /health/live with 200', async () => {
    const res = await http().get('/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'up' });
  });

  it('exposes Prometheus metrics with the HTTP duration histogram of this service', async () => {
    await http().get('/health/live');
    const res = await http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('dsar_http_request_duration_seconds');
    expect(res.text).toMatch(/dsar_http_request_duration_seconds_count\{[^}]*service="probe"[^}]*route="\/health\/live"/);
  });
});

describe('a database that cannot be reached', () => {
  it('is a 503 SERVICE_UNAVAILABLE with Retry-After, not a 500, and the detail names no internals', async () => {
    const res = await http().get('/database-down');
    expectProblem(res, 503, 'SVC-BE-1001', 'SERVICE_UNAVAILABLE', '/database-down');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.text).not.toContain('administrator command');
  });
});
