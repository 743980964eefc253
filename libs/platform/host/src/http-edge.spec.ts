import { deflateSync, gzipSync } from 'node:zlib';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import request from 'supertest';
import { IdentityHeaders, type Principal } from '@dsar/contracts';
import { CurrentPrincipal, InternalAuthKey, signedIdentityHeaders } from '@dsar/platform/http';
import { type HostConfig, quietHostConfig } from './host-config';
import type { ServiceDefinition } from './service-definition';
import { type HostedService, hostService } from './service-host';

/**
 * The HTTP edge every hosted service shares: encoded bodies, the signed
 * internal identity (ADR 0020), and what the answers' headers reveal.
 */

@Controller()
class ProbeController {
  @Post('echo')
  echo(@Body() body: unknown): unknown {
    return body;
  }

  @Get('whoami')
  whoami(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const probeService: ServiceDefinition = { name: 'probe', persistence: false, module: ProbeModule };

const SECRET = 'an-internal-auth-key-of-at-least-32-bytes';
/** A 1 KiB body limit makes the 413 case cheap to reach. */
const config: HostConfig = quietHostConfig({ HTTP_BODY_LIMIT: '1kb', INTERNAL_AUTH_KEY: SECRET });

let hosted: HostedService;
const http = () => request(hosted.app.getHttpServer());

beforeAll(async () => {
  hosted = await hostService(probeService, config);
});

afterAll(async () => {
  await hosted?.close();
});

function expectProblem(res: request.Response, status: number, name: string): void {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/problem\+json/) });
  expect(JSON.parse(res.text)).toMatchObject({ status, name });
}

const json = JSON.stringify({ name: 'Jane', tags: ['a', 'b'] });
/** The bytes as they are: superagent would serialize a Buffer sent as JSON. */
const asIs = ((b: Buffer) => b) as unknown as (obj: unknown) => string;
const post = (encoding: string | undefined, body: Buffer) => {
  const r = http().post('/echo').set('content-type', 'application/json').serialize(asIs);
  return (encoding ? r.set('content-encoding', encoding) : r).send(body);
};

describe('encoded request bodies', () => {
  it('decodes gzip, x-gzip and deflate (zlib) bodies, and takes identity as none', async () => {
    for (const [coding, body] of [
      ['gzip', gzipSync(json)],
      ['x-gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['identity', Buffer.from(json)],
      [undefined, Buffer.from(json)],
    ] as const) {
      const res = await post(coding, body);
      expect({ coding, status: res.status, body: res.body }).toEqual({ coding, status: 201, body: JSON.parse(json) });
    }
  });

  it.each(['br', 'compress', 'zstd', 'x-unknown', 'gzip, gzip', 'gzip, br'])('answers 415 CONTENT_ENCODING_UNSUPPORTED for %s, with Accept-Encoding', async (coding) => {
    const res = await post(coding, gzipSync(json));
    expectProblem(res, 415, 'CONTENT_ENCODING_UNSUPPORTED');
    expect(res.headers['accept-encoding']).toBe('gzip, deflate');
  });

  it('answers 400 REQUEST_BODY_ENCODING_INVALID for a truncated or corrupt body', async () => {
    const gz = gzipSync(json);
    const df = deflateSync(json);
    for (const [coding, body] of [
      ['gzip', gz.subarray(0, gz.length - 8)],
      ['gzip', Buffer.from(json)],
      ['deflate', df.subarray(0, 6)],
      ['deflate', Buffer.from('not deflate at all')],
    ] as const) {
      expectProblem(await post(coding, body), 400, 'REQUEST_BODY_ENCODING_INVALID');
    }
  });

  it('applies the size limit to the decoded body: a zip bomb is a 413', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ padding: ' '.repeat(5_000_000) })));
    expect(bomb.length).toBeLessThan(1024 * 10);
    expectProblem(await post('gzip', bomb), 413, 'PAYLOAD_TOO_LARGE');
    expectProblem(await post('deflate', deflateSync(JSON.stringify({ padding: 'x'.repeat(2000) }))), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('takes JSON in UTF-8 only', async () => {
    const res = await http().post('/echo').set('content-type', 'application/json; charset=latin1').send(json);
    expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('signed internal identity', () => {
  const key = InternalAuthKey.from(SECRET);
  const alice: Principal = { id: 'key:0123456789abcdef', tenantId: 'acme', roles: ['operator'] };

  it('gives the handler the caller of a call signed with the key', async () => {
    const res = await http()
      .get('/whoami')
      .set(signedIdentityHeaders(key, 'GET', '/whoami', alice));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.id, tenantId: 'acme', roles: ['operator'] });
  });

  it('refuses identity headers with no signature, another key, or an old timestamp (401)', async () => {
    const unsigned = { [IdentityHeaders.tenant]: 'acme', [IdentityHeaders.principal]: 'key:0123456789abcdef', [IdentityHeaders.roles]: 'admin' };
    const forged = signedIdentityHeaders(InternalAuthKey.from('another-key-that-is-32-bytes-long!!'), 'GET', '/whoami', alice);
    const expired = signedIdentityHeaders(key, 'GET', '/whoami', alice, Date.now() - 5 * 60_000);
    for (const headers of [unsigned, forged, expired]) {
      const res = await http().get('/whoami').set(headers);
      expectProblem(res, 401, 'INTERNAL_IDENTITY_INVALID');
    }
    expectProblem(await http().get('/whoami'), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('leaves requests without identity open (health)', async () => {
    expect((await http().get('/health/live')).status).toBe(200);
  });

  it('does not start without a key', async () => {
    await expect(hostService(probeService, { ...config, INTERNAL_AUTH_KEY: undefined })).rejects.toThrow(/INTERNAL_AUTH_KEY/);
  });
});

describe('answer headers', () => {
  it('never name the framework (no X-Powered-By)', async () => {
    for (const res of [await http().get('/health/live'), await http().get('/nothing'), await post(undefined, Buffer.from(json)), await post('br', Buffer.from(json))]) {
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
