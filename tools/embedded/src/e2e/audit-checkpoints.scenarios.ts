import { createPublicKey, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { keyIdOf } from '@dsar/platform/audit-chain';
import { waitFor } from '@dsar/platform/testing';
import { CheckpointPublisher } from '@dsar/services/audit-ledger';
import { type ApiResponse, ApiClient, intake } from './api-client';
import { jwtFor } from './audit.scenarios';
import { KEYS } from './gateway-intake.scenarios';
import type { TestSystem } from './systems';
import { type CliRun, runCli } from './cli-process';

/** Runs the `dsar` CLI as a child process (its bin, as `npx dsar` runs it) against the system. */
function dsar(baseUrl: string, token: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, DSAR_BASE_URL: `${baseUrl}/api/v1`, DSAR_TOKEN: token, NODE_OPTIONS: '', ...env } });
}

/**
 * Issue [first-day] item 24: a checkpoint right after start, one on demand (idempotent, at most one per chain state
 * under concurrent calls), the signing key served by the API, and `dsar audit checkpoints verify` finding that key by
 * itself; wrong roles, other tenants and bad input are refused.
 */
export function auditCheckpointScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  let work: string;
  beforeAll(async () => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    work = await mkdtemp(path.join(tmpdir(), 'dsar-checkpoints-'));
  });
  afterAll(async () => work && rm(work, { recursive: true, force: true }));

  const publisher = () => getSystem().services.get('audit-ledger')!.app.get(CheckpointPublisher);

  /** A new request of the caller's tenant, once its chain is in the ledger; returns its id and chain head. */
  async function requestWithChain(client: ApiClient): Promise<{ id: string; head: { sequence: number; hash: string } }> {
    const created = await client.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: getSystem().clock.daysAgo(1) }));
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    // The export waits until the ledger has caught up with the request (read your writes), up to a few seconds: asked
    // again on a busy machine. Events that follow the capture (its notifications) may still extend the chain: it is
    // taken once its head stays put for a second, so that a checkpoint after it covers this head.
    let last: { sequence: number; hash: string } | undefined;
    const head = await waitFor(
      `the settled audit chain of ${id}`,
      async () => {
        const res = await client.get(`/requests/${id}/audit/export`);
        if (res.status !== 202) return undefined;
        const now = { sequence: res.body.headSequence as number, hash: res.body.rootHash as string };
        const settled = last?.hash === now.hash;
        last = now;
        return settled ? now : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
    return { id, head };
  }

  const leavesOf = async (client: ApiClient, checkpointId: string) =>
    ((await client.get(`/audit/checkpoints/${checkpointId}`)).body.leaves as Array<{ requestId: string; sequence: number; hash: string }>) ?? [];

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({ status, type: expect.stringContaining('application/problem+json'), code });
  }

  it('a restarted ledger checkpoints at once a tenant without a checkpoint, and leaves one checkpointed within the interval to its schedule', async () => {
    const fresh = new ApiClient(getSystem().gatewayUrl, await jwtFor('first-day', `cp-start-${randomUUID().slice(0, 8)}`, ['admin']));
    const { id, head } = await requestWithChain(fresh);
    expect((await fresh.get('/audit/checkpoints')).body).toEqual([]);
    // Tenant A has a checkpoint of a moment ago, and a chain that grew since.
    await requestWithChain(api);
    const before = (await api.post('/audit/checkpoints', {})).body.latest;
    await requestWithChain(api);

    await getSystem().restart('audit-ledger');
    await publisher().whenStarted();

    const listed = await fresh.get('/audit/checkpoints');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ number: 1, previousRoot: null, keyId: publisher().keyId });
    expect(await leavesOf(fresh, listed.body[0].checkpointId)).toContainEqual({ requestId: id, ...head });
    expect((await api.get('/audit/checkpoints?limit=1')).body[0].checkpointId).toBe(before.checkpointId);
  }, 180_000);

  it('makes a checkpoint on demand: once per chain state, replayed under its Idempotency-Key, one for two concurrent calls', async () => {
    const { id, head } = await requestWithChain(api);
    const key = randomUUID();
    const first = await api.post('/audit/checkpoints', {}, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(first.body.made).toHaveLength(1);
    expect(first.body.latest).toEqual(first.body.made[0]);
    expect(first.body.latest).toMatchObject({ tenantId: 'tenant-a', algorithm: 'ed25519', keyId: publisher().keyId });
    expect(await leavesOf(api, first.body.latest.checkpointId)).toContainEqual({ requestId: id, ...head });

    const replay = await api.post('/audit/checkpoints', {}, { headers: { 'idempotency-key': key } });
    expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), body: replay.body }).toEqual({ status: 200, replayed: 'true', body: first.body });
    // Nothing changed since: no new checkpoint, the newest one answers (no body at all is the same command).
    const again = await api.call('POST', '/api/v1/audit/checkpoints');
    expect({ status: again.status, made: again.body.made, latest: again.body.latest?.checkpointId }).toEqual({ status: 200, made: [], latest: first.body.latest.checkpointId });

    await requestWithChain(api);
    const [a, b] = await Promise.all([api.post('/audit/checkpoints', {}), api.as(KEYS.auditorA.token).post('/audit/checkpoints', {})]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.made.length + b.body.made.length).toBe(1);
    expect(a.body.latest).toEqual(b.body.latest);
    expect(a.body.latest.number).toBe(first.body.latest.number + 1);
    expect(a.body.latest.previousRoot).toBe(first.body.latest.root);
  }, 180_000);

  it('serves the signing key, and `dsar audit checkpoints verify` trusts it without a key argument; a given key still wins', async () => {
    const keys = await api.as(KEYS.auditorA.token).get('/audit/checkpoints/keys');
    expect(keys.status).toBe(200);
    expect(keys.body.keys).toHaveLength(1);
    const [served] = keys.body.keys;
    expect(served).toMatchObject({ keyId: publisher().keyId, algorithm: 'ed25519', jwk: { kty: 'OKP', crv: 'Ed25519' } });
    // The PEM and the JWK are one key, whose id is the one served.
    expect(keyIdOf(createPublicKey(served.publicKey))).toBe(served.keyId);
    expect(keyIdOf(createPublicKey({ key: served.jwk, format: 'jwk' }))).toBe(served.keyId);
    expect(getSystem().auditKeyId).toBe(served.keyId);

    await requestWithChain(api);
    const checkpoint = (await api.post('/audit/checkpoints', {})).body.latest;
    const base = getSystem().gatewayUrl;
    const verified = await dsar(base, KEYS.auditorA.token, ['audit', 'checkpoints', 'verify', checkpoint.checkpointId, '--output', 'json'], work);
    expect({ code: verified.code, data: verified.json?.data }).toMatchObject({
      code: 0,
      data: { verified: true, checkpointId: checkpoint.checkpointId, keyId: served.keyId, trustedKey: true, signatureValid: true, rootMatchesLeaves: true, trustedKeyFrom: 'server' },
    });

    // A saved checkpoint whose key the server does not serve: named, exit 4.
    const saved = (await api.get(`/audit/checkpoints/${checkpoint.checkpointId}`)).body;
    await writeFile(path.join(work, 'checkpoint.json'), JSON.stringify(saved));
    const otherKey = `sha256:${'0'.repeat(64)}`;
    await writeFile(path.join(work, 'foreign.json'), JSON.stringify({ ...saved, keyId: otherKey }));
    const foreign = await dsar(base, KEYS.auditorA.token, ['audit', 'checkpoints', 'verify', '--file', 'foreign.json', '--output', 'json'], work);
    expect({ code: foreign.code, error: foreign.json?.error?.code }).toEqual({ code: 4, error: 'CLI-CHECKPOINT-INVALID' });
    expect(foreign.json.error.message).toContain(`signed by key ${otherKey}, but the server's signing key is ${served.keyId}`);

    // An explicit key wins over the server's: a key id that is not the signer's fails, with both ids named.
    const mismatch = await dsar(base, KEYS.auditorA.token, ['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json', '--trusted-key-id', otherKey, '--output', 'json'], work);
    expect({ code: mismatch.code, error: mismatch.json?.error?.code }).toEqual({ code: 4, error: 'CLI-CHECKPOINT-INVALID' });
    expect(mismatch.json.error.message).toContain(`signed by key ${served.keyId}, not the trusted key ${otherKey}`);
    const pinned = await dsar(base, 'no-token-needed', ['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json', '--output', 'json'], work, { DSAR_AUDIT_KEY_ID: served.keyId });
    expect({ code: pinned.code, from: pinned.json?.data?.trustedKeyFrom }).toEqual({ code: 0, from: 'trusted-key-id' });
  }, 180_000);

  it('refuses a wrong role (403), a caller confined to a workspace (403), bad input (400) and keeps tenants apart (404)', async () => {
    await requestWithChain(api);
    const before = (await api.get('/audit/checkpoints?limit=1')).body[0];

    expectProblem(await api.as(KEYS.intakeA.token).post('/audit/checkpoints', {}), 403, 'SVC-BE-1302');
    expectProblem(await api.as(KEYS.intakeA.token).get('/audit/checkpoints/keys'), 403, 'SVC-BE-1302');
    expect((await api.as(KEYS.workspaceA.token).post('/audit/checkpoints', {})).status).toBe(403);

    const unknownField = await api.post('/audit/checkpoints', { tenantId: 'tenant-b' });
    expectProblem(unknownField, 400, 'SVC-BE-1102');
    expect(unknownField.body.errors).toEqual([expect.objectContaining({ field: 'tenantId' })]);
    expectProblem(await api.call('POST', '/api/v1/audit/checkpoints', { raw: '{"', headers: { 'content-type': 'application/json' } }), 400, 'SVC-BE-1101');
    // A JSON null is a body, and not the object the schema names (no body at all is what may be left out).
    expectProblem(await api.call('POST', '/api/v1/audit/checkpoints', { raw: 'null', headers: { 'content-type': 'application/json' } }), 400, 'SVC-BE-1102');
    expectProblem(await api.post('/audit/checkpoints', {}, { headers: { 'idempotency-key': 'x'.repeat(300) } }), 400, 'SVC-BE-1105');
    // Nothing was made by the refused calls.
    expect((await api.get('/audit/checkpoints?limit=1')).body[0].checkpointId).toBe(before.checkpointId);

    // Tenant B sees none of tenant A's checkpoints, and cannot make one covering them.
    const tenantB = api.as(KEYS.adminB.token);
    expectProblem(await tenantB.get(`/audit/checkpoints/${before.checkpointId}`), 404, 'SVC-BE-1003');
    const listedB = await tenantB.get('/audit/checkpoints');
    expect(listedB.status).toBe(200);
    expect(listedB.body.every((c: { tenantId: string }) => c.tenantId === 'tenant-b')).toBe(true);
    // A tenant without any audit chain has nothing to checkpoint.
    const empty = new ApiClient(getSystem().gatewayUrl, await jwtFor('first-day', `cp-empty-${randomUUID().slice(0, 8)}`, ['auditor']));
    expectProblem(await empty.post('/audit/checkpoints', {}), 409, 'SVC-BE-1008');
  }, 120_000);
}
