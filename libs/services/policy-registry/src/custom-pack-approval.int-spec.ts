import type { DataSource } from 'typeorm';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type HostedService, hostService } from '@dsar/platform/host';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { CustomPacks } from './application/custom-packs';
import { PackSets } from './application/pack-sets';
import { policyAdminSettingsProvider, policyRegistryServiceWith } from './index';

/**
 * Four eyes on custom packs, on both drivers: the approval migration counts what was in force as approved and
 * leaves the rest waiting, activation refuses an unapproved version, the registrant cannot approve its own, two
 * approvals at once record one, and a tenant without four eyes registers and activates alone as before.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('custom pack approval on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let customPacks: CustomPacks;
  let packSets: PackSets;
  const tenant = `t-${uniqueSuffix()}`;
  const relaxed = `t-${uniqueSuffix()}`;
  const admin = (id: string, tenantId = tenant): Principal => ({ id, tenantId, roles: ['admin'] });
  const registrant = admin('key:registrant');
  const firstActivation = new Date('2026-01-10T09:00:00Z');

  beforeAll(async () => {
    // Approval and activation call no other service.
    const definition = { ...policyRegistryServiceWith(policyAdminSettingsProvider({ POLICY_TENANT_SETTINGS: { [relaxed]: { upgradeFourEyes: false } } })), calls: [] };
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await hostService(definition, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 }));
    } else {
      service = await hostService(definition, testHostConfig({ DATA_DIR: `memory://custom-pack-approval-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    }
    customPacks = service.app.get(CustomPacks);
    packSets = service.app.get(PackSets);
    ds = service.app.get(UnitOfWork).dataSource;
  });

  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  /** A registered version as stored (the document is not read by approval or activation). */
  const insertVersion = (tenantId: string, version: string) =>
    ds.query(
      `INSERT INTO ${qualifiedTable(ds, 'custom_packs')} (tenant_id, name, jurisdiction, version, version_key, release_type, changelog, compatibility_notes, document, published_at, registered_at, registered_by)
       VALUES ($1, 'acme-uk', 'GB', $2, $3::int[], 'minor', 'c', 'n', '{}'::jsonb, now(), now(), $4)`,
      [tenantId, version, version.split('.').map(Number), registrant.id],
    );
  const approvalOf = async (tenantId: string, version: string) =>
    (await ds.query(`SELECT approved_by, approved_at FROM ${qualifiedTable(ds, 'custom_packs')} WHERE tenant_id = $1 AND version = $2`, [tenantId, version]))[0] as {
      approved_by: string | null;
      approved_at: Date | null;
    };
  /** A transaction of the test's own that locks a version's row until it commits. */
  const holdRow = async (tenantId: string, version: string) => {
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(`SELECT 1 FROM ${qualifiedTable(ds, 'custom_packs')} WHERE tenant_id = $1 AND version = $2 FOR UPDATE`, [tenantId, version]);
    return runner;
  };
  const waitingOnLocks = async (): Promise<number> =>
    (await ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n as number;
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => (e instanceof ProblemError ? { name: e.definition.name, extensions: e.extensions } : e),
    );
  const activation = (version: string, workspaceId?: string) => ({ jurisdiction: 'GB', tenantId: tenant, version, ...(workspaceId ? { workspaceId } : {}) });

  it('the migration counts a version in force as approved by its first activator; one never activated waits', async () => {
    const approvalsMigrated = async (): Promise<boolean> =>
      (await ds.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'custom_packs' AND column_name = 'approved_by'`))[0].n > 0;
    while (await approvalsMigrated()) await ds.undoLastMigration({ transaction: 'each' });
    await insertVersion(tenant, '1.0.0');
    await insertVersion(tenant, '1.1.0');
    const activations = qualifiedTable(ds, 'custom_pack_activations');
    for (const [workspace, by, at] of [
      ['', 'key:activator', firstActivation],
      ['north', 'key:later', new Date('2026-02-01T09:00:00Z')],
    ] as const) {
      await ds.query(`INSERT INTO ${activations} (tenant_id, workspace_id, jurisdiction, name, version, activated_at, activated_by) VALUES ($1, $2, 'GB', 'acme-uk', '1.0.0', $3, $4)`, [
        tenant,
        workspace,
        at,
        by,
      ]);
    }
    await ds.runMigrations({ transaction: 'each' });

    const inForce = await approvalOf(tenant, '1.0.0');
    expect({ by: inForce.approved_by, at: new Date(inForce.approved_at!).toISOString() }).toEqual({ by: 'key:activator', at: firstActivation.toISOString() });
    expect(await approvalOf(tenant, '1.1.0')).toEqual({ approved_by: null, approved_at: null });
    // The version in force keeps working: it can be activated for another scope, by the admin who registered it.
    await expect(customPacks.activate(registrant, activation('1.0.0', 'south'))).resolves.toMatchObject({ status: 'activated', workspaceId: 'south' });
  });

  it('refuses to activate a version nobody but its registrant approved, changing nothing', async () => {
    const before = await packSets.read(tenant);
    expect(await refusal(customPacks.activate(registrant, activation('1.1.0')))).toEqual({ name: 'CUSTOM_PACK_NOT_APPROVED', extensions: { registeredBy: registrant.id } });
    expect(await packSets.read(tenant)).toEqual(before);
  });

  it('the registrant may not approve; of two approvals at once one is recorded, and then the version activates', async () => {
    const version = { jurisdiction: 'GB', name: 'acme-uk', version: '1.1.0' };
    expect(await refusal(customPacks.approve(registrant, version))).toEqual({ name: 'CUSTOM_PACK_FOUR_EYES_REQUIRED', extensions: {} });
    expect(await refusal(customPacks.approve(admin('key:second'), { ...version, version: '9.9.9' }))).toEqual({ name: 'CUSTOM_PACK_NOT_FOUND', extensions: {} });
    expect(await refusal(customPacks.approve(admin('key:second', relaxed), version))).toEqual({ name: 'CUSTOM_PACK_NOT_FOUND', extensions: {} });

    // On PostgreSQL the version's row is held while both approvals start, so both are under way before either stores.
    const held = driver === 'postgres' ? await holdRow(tenant, '1.1.0') : undefined;
    const both = Promise.all([customPacks.approve(admin('key:second'), version), customPacks.approve(admin('key:third'), version)]);
    if (held) {
      await waitFor('both approvals to wait for the row', async () => (await waitingOnLocks()) >= 2, { timeoutMs: 10_000 });
      await held.commitTransaction();
      await held.release();
    }
    const [a, b] = await both;
    expect(b).toEqual(a);
    expect(a).toMatchObject({ status: 'approved', registeredBy: registrant.id, approvedBy: expect.stringMatching(/^key:(second|third)$/) });
    expect((await approvalOf(tenant, '1.1.0')).approved_by).toBe(a.approvedBy);
    const recorded = await ds.query(`SELECT envelope FROM ${qualifiedTable(ds, 'outbox')} WHERE event_type = 'dsar.policy.custom_approved.v1' AND tenant_id = $1`, [tenant]);
    expect(recorded).toHaveLength(1);

    await expect(customPacks.activate(registrant, activation('1.1.0'))).resolves.toMatchObject({ status: 'activated', version: '1.1.0', workspaceId: null });
  });

  it('without four eyes one admin registers and activates, and may approve its own version', async () => {
    await insertVersion(relaxed, '1.0.0');
    const own = admin(registrant.id, relaxed);
    await expect(customPacks.activate(own, { jurisdiction: 'GB', tenantId: relaxed, version: '1.0.0' })).resolves.toMatchObject({ status: 'activated' });
    await expect(customPacks.approve(own, { jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' })).resolves.toMatchObject({ approvedBy: registrant.id, registeredBy: registrant.id });
  });
});
