import { apiKeyId, apiKeysJsonSchema, ApiKeyStore } from './api-keys';

const TOKEN = 'alpha-key-0123456789abcdef';
const OTHER_TOKEN = 'bravo-key-0123456789abcdef';

describe('ApiKeyStore', () => {
  const store = new ApiKeyStore([
    { token: TOKEN, tenantId: 'acme', workspaceId: 'eu', roles: ['operator', 'auditor'] },
    { token: OTHER_TOKEN, tenantId: 'globex', roles: ['intake'] },
  ]);

  it('finds the principal of a matching key, named by a digest of the token', () => {
    const principal = store.find(TOKEN);
    expect(principal).toEqual({ id: apiKeyId(TOKEN), tenantId: 'acme', workspaceId: 'eu', roles: ['operator', 'auditor'] });
    expect(principal?.id).toMatch(/^key:[0-9a-f]{16}$/);
    expect(principal?.id).not.toContain(TOKEN.slice(0, 8));
  });

  it('leaves workspaceId out for a key not confined to a workspace', () => {
    expect(store.find(OTHER_TOKEN)).toEqual({ id: apiKeyId(OTHER_TOKEN), tenantId: 'globex', roles: ['intake'] });
  });

  it('finds nothing for an unknown token, a prefix of a key, or an empty string', () => {
    expect(store.find('charlie-key-0123456789abcdef')).toBeUndefined();
    expect(store.find(TOKEN.slice(0, -1))).toBeUndefined();
    expect(store.find('')).toBeUndefined();
  });
});

describe('apiKeysJsonSchema', () => {
  const problemsOf = (raw: string): string[] => {
    const result = apiKeysJsonSchema.safeParse(raw);
    if (result.success) throw new Error('expected DSAR_API_KEYS to be rejected');
    return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('parses a valid list', () => {
    const raw = JSON.stringify([{ token: TOKEN, tenantId: 'acme', roles: ['admin'] }]);
    expect(apiKeysJsonSchema.parse(raw)).toEqual([{ token: TOKEN, tenantId: 'acme', roles: ['admin'] }]);
  });

  it('names each problem by position and field', () => {
    const raw = JSON.stringify([
      { token: 'short', tenantId: '', roles: [] },
      { token: TOKEN, tenantId: 'acme', roles: ['root'] },
      { token: OTHER_TOKEN, tenant_id: 'acme', roles: ['admin'] },
    ]);
    expect(problemsOf(raw)).toEqual([
      '0.token: must be at least 24 characters',
      '0.tenantId: must not be empty',
      '0.roles: must list at least one role',
      '1.roles.0: must be one of admin, operator, auditor, intake, connector',
      '2.tenantId: Invalid input: expected string, received undefined',
      '2: Unrecognized key: "tenant_id"',
    ]);
  });

  it('reports duplicate tokens by position only', () => {
    const raw = JSON.stringify([
      { token: TOKEN, tenantId: 'acme', roles: ['admin'] },
      { token: TOKEN, tenantId: 'globex', roles: ['admin'] },
    ]);
    expect(problemsOf(raw)).toEqual(['1.token: duplicates the token of entry 0']);
  });

  it('rejects a token shaped like a JWT, which would never be looked up as a key', () => {
    const raw = JSON.stringify([{ token: 'aaaaaaaaaa.bbbbbbbbbb.cccccccccc', tenantId: 'acme', roles: ['admin'] }]);
    expect(problemsOf(raw)).toEqual(['0.token: must not look like a JWT (three dot-separated segments)']);
  });

  it('rejects ids that could not travel on as HTTP headers', () => {
    const raw = JSON.stringify([{ token: TOKEN, tenantId: 'acme\r\nx-dsar-roles: admin', roles: ['intake'] }]);
    expect(problemsOf(raw)).toEqual([expect.stringMatching(/^0\.tenantId: must be printable ASCII/)]);
  });

  it('says the JSON is invalid without quoting it', () => {
    const problems = problemsOf(`[{"token": "${TOKEN}", tenantId: acme}]`);
    expect(problems).toEqual([': not valid JSON: expected an array of {token, tenantId, workspaceId?, roles}']);
  });
});
