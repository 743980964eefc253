import { Writable } from 'node:stream';
import { Body, Controller, Module, Post } from '@nestjs/common';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { quietHostConfig } from './host-config';
import type { ServiceDefinition } from './service-definition';
import { MAX_REQUEST_TARGET_LENGTH } from './request-target';
import { type HostedService, hostService } from './service-host';

/**
 * docs/security.md#what-is-never-logged, through a hosted service: the
 * problem+json filter logs an unexpected error (here a database error whose
 * parameters are the request body) with the request id, and nothing of the
 * body, the query's values or the caller's credentials.
 */
const EMAIL = 'hostmarker.jane@example.org';
const NAME = 'Hostmarker Doe';
const RAW_TEXT = 'HOSTMARKER-INTAKE text';
const TOKEN = 'HOSTMARKER_TOKEN_0123456789';
const MARKERS = [EMAIL, NAME, RAW_TEXT, TOKEN, 'HOSTMARKER', 'hostmarker'];

@Controller()
class FailingController {
  @Post('store')
  store(@Body() body: { name: string; email: string; rawText: string }): never {
    const driverError = Object.assign(new Error(`invalid input syntax for type uuid: "${body.email}"`), {
      code: '22P02',
      detail: `Key (email)=(${body.email}) already exists.`,
      where: `unnamed portal parameter $2 = '${body.name}'`,
    });
    throw new QueryFailedError(`INSERT INTO requests (name, email, text) VALUES ($1, $2, '${body.rawText}')`, [body.name, body.email, body.rawText], driverError);
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

const definition: ServiceDefinition = { name: 'log-probe', persistence: false, module: FailingModule };

const chunks: string[] = [];
const destination = new Writable({
  write(chunk, _enc, done) {
    chunks.push(String(chunk));
    done();
  },
});

let hosted: HostedService;

beforeAll(async () => {
  hosted = await hostService(definition, quietHostConfig({ LOG_LEVEL: 'trace' }), { logDestination: destination });
});

afterAll(async () => hosted?.close());

describe('the logs of a failing request', () => {
  it('name the request and the error, never the body, the parameters or the token', async () => {
    const res = await request(hosted.app.getHttpServer())
      .post('/store?email=' + encodeURIComponent(EMAIL))
      .set('authorization', `Bearer ${TOKEN}`)
      .set('x-dsar-principal', `key:${TOKEN}`)
      .send({ name: NAME, email: EMAIL, rawText: RAW_TEXT });
    expect(res.status).toBe(500);
    expect(res.text).not.toContain(EMAIL);
    const requestId = res.headers['x-request-id'];
    const text = chunks.join('');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const failed = lines.find((l) => l.msg === 'request failed');
    expect(failed).toMatchObject({ requestId, level: 50, err: { type: 'QueryFailedError', code: '22P02' } });
    expect(lines.some((l) => l.req?.url?.startsWith('/store?email=') && l.res?.statusCode === 500)).toBe(true);
    for (const m of MARKERS) expect(text).not.toContain(m);
  });
});

describe('long request targets', () => {
  const http = () => request(hosted.app.getHttpServer());
  const linesOf = (requestId: string) =>
    chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>)
      .filter((l) => l.req?.id === requestId || l.requestId === requestId);

  it('are refused with 414 URI_TOO_LONG before they are routed or logged, without echoing the target', async () => {
    const target = `/${'a.'.repeat(MAX_REQUEST_TARGET_LENGTH / 2)}`;
    const res = await http().get(target).set('x-request-id', 'long-target-1');
    expect(res.status).toBe(414);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ status: 414, code: 'SVC-BE-1007', name: 'URI_TOO_LONG', requestId: 'long-target-1' });
    expect(res.text.length).toBeLessThan(1024);
    expect(linesOf('long-target-1')).toEqual([]);
  });

  it('up to the limit are routed as usual, and their log line holds a cut path', async () => {
    const target = `/${'a.'.repeat(MAX_REQUEST_TARGET_LENGTH / 2 - 1)}a`;
    expect(target.length).toBe(MAX_REQUEST_TARGET_LENGTH);
    const res = await http().get(target).set('x-request-id', 'long-target-2');
    expect(res.status).toBe(404);
    const [line] = linesOf('long-target-2');
    expect(line.req.url).toMatch(/^\/…\[\d+ characters cut\]$/);
    expect(JSON.stringify(line).length).toBeLessThan(1024);
  });
});
