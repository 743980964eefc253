import { z } from 'zod';
import { commonFields, httpFields } from '@dsar/platform/config';
import { startBanner } from './banner';
import { embeddedConfigSchema } from './config';

const config = { DB_DRIVER: 'pglite', DATA_DIR: './.data', BUS_DRIVER: 'memory' } as const;
const devToken = { token: 'dsar_dev_0123456789abcdef0123456789', path: '.data/dev-token', created: false };
const reviewerToken = { token: 'dsar_reviewer_0123456789abcdef0123456789', path: '.data/reviewer-token', created: false };
const loopback = { gatewayUrl: 'http://127.0.0.1:8080', listening: { address: '127.0.0.1', port: 8080 } };

describe('the embedded runner (npm start)', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise; the chart and the service processes keep 0.0.0.0', () => {
    expect(embeddedConfigSchema.parse({}).HOST).toBe('127.0.0.1');
    expect(embeddedConfigSchema.parse({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(httpFields.HOST.parse(undefined)).toBe('0.0.0.0');
  });

  it('logs readable lines at warn unless LOG_FORMAT or LOG_LEVEL say otherwise; the service processes keep JSON at info', () => {
    expect(embeddedConfigSchema.parse({})).toMatchObject({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'warn' });
    expect(embeddedConfigSchema.parse({ LOG_FORMAT: 'json' })).toMatchObject({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
    expect(embeddedConfigSchema.parse({ LOG_LEVEL: 'debug' })).toMatchObject({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' });
    expect(embeddedConfigSchema.safeParse({ LOG_FORMAT: 'xml' }).success).toBe(false);
    expect(z.object(commonFields).parse({})).toMatchObject({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  });
});

describe('startBanner', () => {
  it('names the loopback address it is bound to, and prints the development key without a warning', () => {
    const banner = startBanner(config, { ...loopback, devToken });
    expect(banner.text).toBe(
      'DSAR service running in embedded mode on http://127.0.0.1:8080 (database: pglite in ./.data, bus: memory)\n' +
        'API: http://127.0.0.1:8080/api/v1  reference: http://127.0.0.1:8080/api/docs  console: http://127.0.0.1:8080/console/\n' +
        'Listening on 127.0.0.1:8080: this machine only (HOST=0.0.0.0 opens it to the network).\n' +
        'No authentication configured: development admin key for tenant "default" (also in .data/dev-token):\n' +
        `  Authorization: Bearer ${devToken.token}\n`,
    );
    expect(banner.warnings).toEqual([]);
  });

  it('prints the development reviewer key beside the admin key, and warns about both when every interface listens', () => {
    const banner = startBanner(config, { ...loopback, devToken, reviewerToken });
    expect(banner.text).toBe(
      'DSAR service running in embedded mode on http://127.0.0.1:8080 (database: pglite in ./.data, bus: memory)\n' +
        'API: http://127.0.0.1:8080/api/v1  reference: http://127.0.0.1:8080/api/docs  console: http://127.0.0.1:8080/console/\n' +
        'Listening on 127.0.0.1:8080: this machine only (HOST=0.0.0.0 opens it to the network).\n' +
        'No authentication configured: development admin key for tenant "default" (also in .data/dev-token):\n' +
        `  Authorization: Bearer ${devToken.token}\n` +
        'Development reviewer key for tenant "default", role operator: a second person for four eyes (also in .data/reviewer-token):\n' +
        `  Authorization: Bearer ${reviewerToken.token}\n`,
    );
    expect(banner.warnings).toEqual([]);
    const open = startBanner(config, { gatewayUrl: 'http://127.0.0.1:8080', listening: { address: '0.0.0.0', port: 8080 }, devToken, reviewerToken });
    expect(open.warnings).toEqual(['warning: the development admin and reviewer keys are accepted from every machine that can reach 0.0.0.0:8080; set DSAR_API_KEYS, or HOST=127.0.0.1']);
  });

  it('says that every interface listens when bound to 0.0.0.0 or ::, and warns that the development key is reachable', () => {
    for (const address of ['0.0.0.0', '::']) {
      const shown = address === '::' ? '[::]:8080' : '0.0.0.0:8080';
      const banner = startBanner(config, { gatewayUrl: 'http://127.0.0.1:8080', listening: { address, port: 8080 }, devToken });
      expect(banner.text).toContain(`Listening on every interface (${shown}): other machines can reach it.\n`);
      expect(banner.warnings).toEqual([`warning: the development admin key is accepted from every machine that can reach ${shown}; set DSAR_API_KEYS, or HOST=127.0.0.1`]);
    }
  });

  it('names another bound address as it is; with configured keys there is no key to warn about', () => {
    const banner = startBanner(config, { gatewayUrl: 'http://192.0.2.10:8080', listening: { address: '192.0.2.10', port: 8080 } });
    expect(banner.text).toContain('Listening on 192.0.2.10:8080.\n');
    expect(banner.text).not.toContain('Authorization');
    expect(banner.warnings).toEqual([]);
  });

  it('warns that a dev-token file left in DATA_DIR answers 401 while authentication is configured, naming the file and the settings', () => {
    const one = startBanner(config, { ...loopback, leftoverDevToken: { path: '.data/dev-token', configuredBy: ['DSAR_API_KEYS'] } });
    expect(one.text).not.toContain('Authorization');
    expect(one.warnings).toEqual([
      'warning: .data/dev-token is not accepted: DSAR_API_KEYS is set, so the development key in that file answers 401. ' +
        'Use a configured key; delete the file once nothing reads it (it is kept, and used again by a start without authentication).',
    ]);
    const two = startBanner(config, { ...loopback, leftoverDevToken: { path: '.data/dev-token', configuredBy: ['DSAR_API_KEYS', 'AUTH_JWT_SECRET'] } });
    expect(two.warnings[0]).toContain('DSAR_API_KEYS, AUTH_JWT_SECRET are set');
  });

  it('warns about a reviewer-token file left in DATA_DIR as about dev-token', () => {
    const both = startBanner(config, {
      ...loopback,
      leftoverDevToken: { path: '.data/dev-token', configuredBy: ['AUTH_JWT_SECRET'] },
      leftoverReviewerToken: { path: '.data/reviewer-token', configuredBy: ['AUTH_JWT_SECRET'] },
    });
    expect(both.text).not.toContain('Authorization');
    expect(both.warnings).toEqual([
      expect.stringMatching(/^warning: \.data\/dev-token is not accepted: AUTH_JWT_SECRET is set, so the development key in that file answers 401\./),
      expect.stringMatching(/^warning: \.data\/reviewer-token is not accepted: AUTH_JWT_SECRET is set, so the development key in that file answers 401\./),
    ]);
  });
});

describe('startBanner: the audit signing key', () => {
  it('names the key id audit checkpoints are signed with, and where the API serves the key', () => {
    const keyId = `sha256:${'ab'.repeat(32)}`;
    const banner = startBanner(config, { ...loopback, auditKeyId: keyId });
    expect(banner.text.split('\n')).toContain(`Audit checkpoints are signed with key ${keyId} (also at GET /api/v1/audit/checkpoints/keys).`);
    expect(startBanner(config, loopback).text).not.toContain('Audit checkpoints');
  });
});
