import { setTimeout as sleep } from 'node:timers/promises';
import express, { type Express } from 'express';
import request from 'supertest';
import { IdentityHeaders, type Principal } from '@dsar/contracts';
import { InternalAuthKey, internalIdentity, signedIdentityHeaders } from './internal-identity';
import { currentRequestContext, requestContext } from './request-context';

const KEY = InternalAuthKey.from('request-context-spec-key-0123456789ab');
const alice: Principal = { id: 'key:alice', tenantId: 'acme', workspaceId: 'eu-web', roles: ['operator'] };
const TRACE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** What a handler sees of its request's context after a few hops of async work: a timer, a promise, an I/O-free tick. */
async function seenLater() {
  await sleep(Math.random() * 10);
  await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  const context = currentRequestContext();
  return { requestId: context?.requestId, traceparent: context?.traceparent ?? null, principal: context?.identity?.principal ?? null, signedWithKey: context?.identity?.key === KEY };
}

/** A service as the host builds its chain: identity check, then the request context; `key` undefined for the edge. */
function appWith(key?: InternalAuthKey): Express {
  const app = express();
  if (key) app.use(internalIdentity(key));
  app.use(requestContext(key));
  app.get('/ctx', (_req, res, next) => {
    seenLater().then((seen) => res.json(seen), next);
  });
  return app;
}

describe('the request context', () => {
  it('is set for a request and seen by its nested async work: the id, the trace context and the verified caller', async () => {
    const res = await request(appWith(KEY))
      .get('/ctx')
      .set({ 'x-request-id': 'req-42', traceparent: TRACE, ...signedIdentityHeaders(KEY, 'GET', '/ctx', alice) });
    expect(res.body).toEqual({ requestId: 'req-42', traceparent: TRACE, principal: alice, signedWithKey: true });
  });

  it('makes an id for a request without a usable one and answers it in x-request-id', async () => {
    const res = await request(appWith(KEY)).get('/ctx').set('x-request-id', 'not an id!');
    expect(res.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-request-id']).toBe(res.body.requestId);
    expect(res.body.principal).toBeNull();
  });

  it('keeps no caller whose signature was refused, and none on the edge, which authenticates its callers itself', async () => {
    const forged = { ...signedIdentityHeaders(KEY, 'GET', '/ctx', alice), [IdentityHeaders.tenant]: 'globex' };
    expect((await request(appWith(KEY)).get('/ctx').set(forged)).body.principal).toBeNull();
    const onTheEdge = await request(appWith())
      .get('/ctx')
      .set(signedIdentityHeaders(KEY, 'GET', '/ctx', alice));
    expect(onTheEdge.body.principal).toBeNull();
  });

  it('keeps concurrent requests apart', async () => {
    const app = appWith(KEY);
    const ids = Array.from({ length: 20 }, (_, i) => `req-${i}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        request(app)
          .get('/ctx')
          .set({ 'x-request-id': id, ...signedIdentityHeaders(KEY, 'GET', '/ctx', { ...alice, id: `key:${i}` }) }),
      ),
    );
    expect(answers.map((a) => [a.body.requestId, a.body.principal.id])).toEqual(ids.map((id, i) => [id, `key:${i}`]));
  });

  it('is absent outside any request', () => {
    expect(currentRequestContext()).toBeUndefined();
  });
});
