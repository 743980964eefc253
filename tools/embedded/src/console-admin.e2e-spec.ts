import { type PolicyPack, policyPackVersion } from '@dsar/contracts';
import { saveScreenshot, waitFor } from '@dsar/platform/testing';
import { SHOWN_WITHIN_MS, shown, withConsole } from './e2e/console-kit';
import { KEYS } from './e2e/gateway-intake.scenarios';

/**
 * The console's administration pages in Chromium (docs/console.md): the data-system registry, retention and policy
 * packs, as an admin (alan) and as an operator who may read them only (ada). Each page is checked with axe.
 */

jest.setTimeout(180_000);

/** A custom GB pack of tenant A: the statutory UK pack as a service standard, at `version`. */
function customRegistration(version: string, releaseType: 'major' | 'minor') {
  const pack = structuredClone(policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack);
  pack.packId = 'console-uk';
  pack.version = version;
  pack.name = 'Console test service standard';
  return { jurisdiction: 'GB', name: pack.packId, version, pack, metadata: { changelog: `Release ${version}.`, compatibilityNotes: 'None.', releaseType } };
}

describe('the administration pages of the console in Chromium (embedded mode)', () => {
  withConsole('console-admin', (kit) => {
    const { api, signedIn, noViolations } = kit;

    it('lets an admin register a manual data system and see it listed, then delete it after a confirmation', async () => {
      const { page } = await signedIn('alan', 'data-systems');
      await shown(page.getByRole('heading', { level: 1, name: 'Data systems' }));
      await page.getByRole('button', { name: 'Register a data system' }).click();
      await page.getByLabel('Key').fill('paper-archive');
      await page.getByLabel('Name').fill('Paper archive');
      await page.getByLabel('Owner email').fill('archive-owners@example.test');
      await page.getByRole('checkbox', { name: 'Access' }).check();
      await noViolations(page);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await shown(page.getByText('Data system paper-archive registered.'));
      const table = page.getByRole('table', { name: 'Data systems' });
      await shown(table.getByRole('cell', { name: 'Paper archive' }));
      expect((await api().get('/data-systems/paper-archive')).body).toMatchObject({ mode: 'manual', actions: ['access'], owner: { email: 'archive-owners@example.test' } });
      await saveScreenshot(page, 'console-data-systems');
      await noViolations(page);

      // What the API refuses shows inline: a system that comes after itself is caught before sending, an unknown one by the API.
      await page.getByRole('button', { name: 'Change paper-archive' }).click();
      await page.getByLabel('Comes after').fill('no-such-system');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await shown(page.getByRole('alert').filter({ hasText: 'SVC-BE-1802' }));
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('button', { name: 'Delete paper-archive' }).click();
      await page.getByRole('button', { name: 'Delete paper-archive for good' }).click();
      await shown(page.getByText('Data system paper-archive deleted.'));
      expect((await api().get('/data-systems/paper-archive')).status).toBe(404);
    });

    it('shows an operator the registry without Register, Change or Delete buttons', async () => {
      expect(
        (
          await api().call('PUT', '/api/v1/data-systems/order-store', {
            json: {
              displayName: 'Order store',
              owner: { email: 'orders@example.test' },
              actions: ['access', 'erasure'],
              identityTypes: ['email'],
              mode: 'manual',
            },
          })
        ).status,
      ).toBe(201);
      const { page } = await signedIn('ada', 'data-systems');
      await shown(page.getByRole('table', { name: 'Data systems' }).getByRole('cell', { name: 'Order store' }));
      for (const name of [/^Register/, /^Change/, /^Delete/]) expect(await page.getByRole('button', { name }).count()).toBe(0);
      await page.getByRole('button', { name: 'Pending tasks of order-store' }).click();
      await shown(page.getByText('No task waits for a claim.'));
      await noViolations(page);
    });

    it('lets an admin change the retention of one class, and the table shows it', async () => {
      const { page } = await signedIn('alan', 'retention');
      await shown(page.getByRole('heading', { level: 1, name: 'Retention' }));
      await shown(page.getByRole('table', { name: 'Next sweep' }));
      await page.getByRole('button', { name: 'Edit delivery log' }).click();
      await page.getByLabel('Maximum days').fill('400');
      await page.getByLabel('Purge records older than the maximum').check();
      await noViolations(page);
      await page.getByRole('button', { name: 'Save policy' }).click();
      await shown(page.getByText('The policy of delivery log was saved.'));
      const row = page.getByRole('table', { name: 'Retention policies' }).getByRole('row', { name: /^Delivery log/ });
      await shown(row.getByRole('cell', { name: '400', exact: true }));
      const stored = (await api().get('/tenants/tenant-a/retention')).body as { class: string; maxDays: number; purgeEnabled: boolean }[];
      expect(stored.find((p) => p.class === 'delivery_log')).toMatchObject({ maxDays: 400, purgeEnabled: true });

      // A maximum under the minimum is caught before sending.
      // The form opens again from the saved policy (on a busy machine, only once the save's re-render is over).
      await page.getByRole('button', { name: 'Edit delivery log', expanded: false }).click();
      await shown(page.getByRole('button', { name: 'Edit delivery log', expanded: true }));
      const maximum = page.getByLabel('Maximum days');
      await waitFor('the form showing the saved maximum', async () => (await maximum.inputValue()) === '400', { timeoutMs: SHOWN_WITHIN_MS });
      await maximum.fill('1');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await shown(page.getByText('At least the minimum days.'));
      await noViolations(page);
    });

    it('lets an admin propose a pack upgrade, and shows the problem of his own approval (four eyes)', async () => {
      const admin = api();
      const approver = admin.as(KEYS.approverA.token);
      const version = { jurisdiction: 'GB', name: 'console-uk', version: '1.0.0' };
      expect((await admin.post('/policies/custom/register', customRegistration('1.0.0', 'major'))).status).toBe(202);
      expect((await approver.post('/policies/custom/approve', version)).status).toBe(202);
      expect((await admin.post('/policies/custom/activate', { ...version, tenantId: 'tenant-a' })).status).toBe(202);
      expect((await admin.post('/policies/custom/register', customRegistration('1.1.0', 'minor'))).status).toBe(202);
      expect((await approver.post('/policies/custom/approve', { ...version, version: '1.1.0' })).status).toBe(202);

      const { page } = await signedIn('alan', 'policies');
      await shown(page.getByRole('heading', { level: 1, name: 'Policy packs' }));
      await shown(page.getByRole('table', { name: 'Policy packs' }).getByText('console-uk'));
      await shown(page.getByText('No upgrade was proposed yet.'));
      await noViolations(page);
      await page.getByRole('button', { name: 'Propose an upgrade' }).click();
      await shown(page.getByText(/^Upgrade proposed/));
      await shown(page.getByText(/console-uk \(custom, GB\) 1\.0\.0 → 1\.1\.0/));
      await page.getByRole('button', { name: /^Approve/ }).click();
      await shown(page.getByRole('alert').filter({ hasText: 'SVC-BE-1513' }));
      await saveScreenshot(page, 'console-policies');
      await noViolations(page);

      // Nothing else to upgrade while the proposal waits: the API's problem shows next to the form.
      await page.getByRole('button', { name: 'Propose an upgrade' }).click();
      await shown(page.getByRole('alert').filter({ hasText: /SVC-BE-15/ }));

      // The pack's document opens from the catalog.
      await page.getByRole('button', { name: 'Show console-uk' }).click();
      await shown(page.getByRole('heading', { name: 'Pack console-uk' }));
    });

    it('shows the navigation entries of the pages a caller may read', async () => {
      const { page } = await signedIn('ian');
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const name of ['Data systems', 'Retention', 'Policies']) await shown(nav.getByRole('link', { name }));
      await nav.getByRole('link', { name: 'Retention' }).click();
      await shown(page.getByRole('heading', { level: 1, name: 'Retention' }));
      expect(await page.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Retention' }).getAttribute('aria-current')).toBe('page');
    });
  });
});
