import { z } from 'zod';
import { DEFAULT_ARTIFACT_MAX_BYTES, fulfilmentFields, fulfilmentSettingsFrom } from './fulfilment-settings';

const schema = z.object(fulfilmentFields);

describe('fulfilment settings', () => {
  it('defaults: 2 GiB artifacts, four eyes on, no tenant overrides', () => {
    const config = schema.parse({});
    // The retention sweep of the service's two classes: hourly, 100 requests a page.
    expect(config).toEqual({ ARTIFACT_MAX_BYTES: 2 * 1024 ** 3, MANIFEST_FOUR_EYES: true, FULFILMENT_TENANT_SETTINGS: {}, RETENTION_SWEEP_INTERVAL_MS: 3_600_000, RETENTION_SWEEP_BATCH: 100 });
    expect(fulfilmentSettingsFrom(config)).toEqual({ artifactMaxBytes: DEFAULT_ARTIFACT_MAX_BYTES, fourEyes: true, tenants: {} });
    expect(fulfilmentSettingsFrom({})).toEqual(fulfilmentSettingsFrom(config));
  });

  it("reads the environment's strings", () => {
    const config = schema.parse({ ARTIFACT_MAX_BYTES: '1048576', MANIFEST_FOUR_EYES: 'false', FULFILMENT_TENANT_SETTINGS: '{"tenant-a": {"fourEyes": true}, "tenant-b": {}}' });
    expect(fulfilmentSettingsFrom(config)).toEqual({ artifactMaxBytes: 1048576, fourEyes: false, tenants: { 'tenant-a': { fourEyes: true }, 'tenant-b': {} } });
  });

  it('refuses what it cannot use', () => {
    for (const bad of [
      { ARTIFACT_MAX_BYTES: '0' },
      { ARTIFACT_MAX_BYTES: '2gb' },
      { MANIFEST_FOUR_EYES: 'maybe' },
      { FULFILMENT_TENANT_SETTINGS: 'not json' },
      { FULFILMENT_TENANT_SETTINGS: '{"tenant-a": {"fourEyes": "no"}}' },
      { FULFILMENT_TENANT_SETTINGS: '{"tenant-a": {"reviewers": 2}}' },
      { FULFILMENT_TENANT_SETTINGS: '[]' },
    ]) {
      expect(schema.safeParse(bad).success).toBe(false);
    }
  });
});
