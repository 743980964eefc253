import { createTestDatabase, createTestTopics, distributedTestConfig, testHostConfig } from '@dsar/platform/testing';
import { API_KEYS_JSON, gatewayIntakeScenarios, KEYS } from './e2e/gateway-intake.scenarios';
import { ApiClient, intake } from './e2e/api-client';
import { type RunningSystem, startSystem } from './system';
import { apiKeyListSchema } from '@dsar/platform/auth';

const apiKeys = apiKeyListSchema.parse(JSON.parse(API_KEYS_JSON));
const gatewaySettings = { DSAR_API_KEYS: apiKeys, HTTP_BODY_LIMIT: '100kb' };

describe('gateway and intake in embedded mode (PGlite, in-memory bus)', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ ...testHostConfig({ DATA_DIR: 'memory://gateway-intake', HTTP_BODY_LIMIT: '100kb' }), ...gatewaySettings });
  });
  afterAll(async () => system?.close());
  gatewayIntakeScenarios(() => system);
});

describe('gateway and intake in distributed mode (PostgreSQL, Kafka)', () => {
  let system: RunningSystem;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = await createTestTopics();
    system = await startSystem({ ...distributedTestConfig(db.url, prefix, { HTTP_BODY_LIMIT: '100kb', OUTBOX_POLL_MS: 250 }), ...gatewaySettings });
  });
  afterAll(async () => {
    await system?.close();
    await db?.drop();
  });
  gatewayIntakeScenarios(() => system);
});

describe('rate limit', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ ...testHostConfig({ DATA_DIR: 'memory://rate-limit' }), DSAR_API_KEYS: apiKeys, RATE_LIMIT_PER_MINUTE: 3 });
  });
  afterAll(async () => system?.close());

  it('answers 429 with Retry-After once a caller exceeds its limit; other callers are unaffected', async () => {
    const api = new ApiClient(system.gatewayUrl, KEYS.adminA.token);
    for (let i = 0; i < 3; i++) expect((await api.get('/requests')).status).toBe(200);
    const limited = await api.post('/requests', intake());
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('SVC-BE-1004');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api.as(KEYS.operatorB.token).get('/requests')).status).toBe(200);
  });
});

describe('embedded mode without configured authentication', () => {
  it('makes a development admin key for tenant "default"', async () => {
    const system = await startSystem(testHostConfig({ DATA_DIR: 'memory://dev-token' }));
    try {
      expect(system.devToken?.token).toMatch(/^dsar_dev_/);
      const api = new ApiClient(system.gatewayUrl, system.devToken!.token);
      const created = await api.post('/requests', intake());
      expect(created.status).toBe(202);
      expect((await api.get(`/requests/${created.body.id}`)).body.tenantId).toBe('default');
      expect((await api.get('/requests', { token: 'some-other-token-000000000000' })).status).toBe(401);
    } finally {
      await system.close();
    }
  });
});
