import { testHostConfig } from '@dsar/platform/testing';
import { API_KEYS_JSON, gatewayIntakeScenarios, KEYS } from './e2e/gateway-intake.scenarios';
import { ApiClient, intake } from './e2e/api-client';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';
import { type RunningSystem, startSystem } from './system';
import { apiKeyListSchema } from '@dsar/platform/auth';

const apiKeys = apiKeyListSchema.parse(JSON.parse(API_KEYS_JSON));

describe('gateway and intake in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('gateway-intake', gatewayIntakeScenarios, { HTTP_BODY_LIMIT: '100kb' });
});

describe('gateway and intake in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(gatewayIntakeScenarios, { HTTP_BODY_LIMIT: '100kb' });
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
