import { type PolicyPack, policyPackVersion } from '@dsar/contracts';
import { saveScreenshot } from '@dsar/platform/testing';
import type { Page } from 'playwright-core';
import { shown, withConsole } from './e2e/console-kit';
import { KEYS } from './e2e/gateway-intake.scenarios';

/**
 * Custom policy packs on the console's policies page in Chromium (docs/console.md): an admin (alan) registers one, his
 * own approval is refused (four eyes), a second admin (mary) reads and approves it, activates and deactivates it; a
 * document that is not JSON never leaves the browser, one the API refuses shows its problem; an operator (ada) sees
 * the list without the admin buttons. Each page is checked with axe.
 */

jest.setTimeout(240_000);

/**
 * A custom pack of tenant A: the statutory UK pack under a name of its own, as a company's service standard; `days`
 * answers requests within that many calendar days instead of the law's month.
 */
function customPack(packId: string, name: string, options: { days?: number; version?: string } = {}): PolicyPack {
  const pack = structuredClone(policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack);
  pack.packId = packId;
  pack.version = options.version ?? '1.0.0';
  pack.name = name;
  if (options.days !== undefined) {
    pack.rules.default.period = { ...pack.rules.default.period, amount: options.days, unit: 'calendar_days', countReceiptDay: false };
    pack.notes = [`${name}: every request is answered within ${options.days} calendar days of receipt, sooner than the law's month; the rest follows UK GDPR.`];
  }
  return pack;
}

/** The POSTs of custom pack routes a page sends, recorded as they leave the browser. */
function customPackPosts(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/v1/policies/custom/')) sent.push(new URL(request.url()).pathname);
  });
  return sent;
}

const versionPanel = (page: Page, words: string) => page.getByRole('region', { name: `Custom pack ${words}` });

describe('custom policy packs in the console in Chromium (embedded mode)', () => {
  withConsole('console-custom-packs', (kit) => {
    const { api, signedIn, noViolations } = kit;

    it('lets an admin register a custom pack, refuses his own approval, and lets a second admin approve, activate and deactivate it', async () => {
      const { page } = await signedIn('alan', 'policies');
      await shown(page.getByRole('heading', { level: 2, name: 'Custom packs' }));
      await page.getByRole('button', { name: 'Register a custom pack' }).click();
      const form = page.getByRole('form', { name: 'Register a custom pack' });
      await form.getByLabel('Changelog').fill('Access requests answered within twenty days.');
      await form.getByLabel('Compatibility notes').fill('None: the first version.');
      await form.getByLabel('Pack document (JSON)').fill(JSON.stringify(customPack('harbour-uk', 'Harbour Lines service standard', { days: 20 }), null, 2));
      await shown(form.getByRole('link', { name: 'API reference' }));
      await noViolations(page);
      await form.getByRole('button', { name: 'Register the pack' }).click();

      // Registered and pending: the registrant is not offered his own approval, and activating it alone is refused.
      await shown(page.getByText("harbour-uk 1.0.0 for GB registered. Another admin approves it: send them this page's address."));
      const panel = versionPanel(page, 'harbour-uk 1.0.0 for GB');
      await shown(panel.getByText('Waiting for approval (registered by jwt:alan)'));
      await shown(panel.getByText('Harbour Lines service standard, version 1.0.0'));
      await shown(page.getByRole('table', { name: 'Custom packs' }).getByRole('row', { name: /harbour-uk.*Waiting for approval/ }));
      expect(await panel.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
      await panel.getByRole('button', { name: /^Activate for the whole tenant/ }).click();
      await shown(panel.getByRole('alert').filter({ hasText: 'SVC-BE-1521' }));
      const address = new URL(page.url());
      expect(address.pathname).toBe('/console/policies');
      expect(Object.fromEntries(address.searchParams)).toEqual({ pack: 'harbour-uk', jurisdiction: 'GB', version: '1.0.0' });
      await noViolations(page);

      // Opened afresh, the page cannot know who registered the version: it offers Approve, and the API refuses the registrant.
      const afresh = (await signedIn('alan', `policies${address.search}`)).page;
      const afreshPanel = versionPanel(afresh, 'harbour-uk 1.0.0 for GB');
      await afreshPanel.getByRole('button', { name: 'Approve harbour-uk 1.0.0 for GB' }).click();
      await shown(afreshPanel.getByRole('alert').filter({ hasText: 'SVC-BE-1522' }));
      await shown(afreshPanel.getByText('Waiting for approval (registered by jwt:alan)'));
      expect(await afreshPanel.getByRole('button', { name: /^Approve/ }).count()).toBe(0);

      // A second admin opens the version by its name, reads it and approves it; then it is activated.
      const { page: second } = await signedIn('mary', 'policies');
      const open = second.getByRole('form', { name: 'Open a registered version' });
      await open.getByLabel('Pack id').fill('harbour-uk');
      await open.getByLabel('Jurisdiction').fill('gb');
      await open.getByLabel('Version').fill('1.0.0');
      await open.getByRole('button', { name: 'Open' }).click();
      const secondPanel = versionPanel(second, 'harbour-uk 1.0.0 for GB');
      await shown(secondPanel.getByText('Harbour Lines service standard, version 1.0.0'));
      await shown(secondPanel.getByText('20 calendar days'));
      await secondPanel.getByRole('button', { name: 'Approve harbour-uk 1.0.0 for GB' }).click();
      await shown(second.getByText('harbour-uk 1.0.0 for GB approved by jwt:mary.'));
      await shown(secondPanel.getByText('Approved by jwt:mary'));
      await secondPanel.getByRole('button', { name: /^Activate for the whole tenant/ }).click();
      await shown(second.getByText('harbour-uk 1.0.0 for GB activated for the whole tenant: new requests there use it.'));
      const row = second.getByRole('table', { name: 'Custom packs' }).getByRole('row', { name: /harbour-uk/ });
      await shown(row.getByRole('cell', { name: 'Active for the whole tenant' }));
      await shown(second.getByRole('table', { name: 'Policy packs' }).getByText('harbour-uk'));
      expect(await secondPanel.getByRole('button', { name: /^Activate/ }).count()).toBe(0);
      const inUse = (await api().get('/policies?jurisdiction=GB')).body as { packId: string; source: string }[];
      expect(inUse.map((p) => [p.packId, p.source])).toContainEqual(['harbour-uk', 'custom']);
      await noViolations(second);
      await saveScreenshot(second, 'console-custom-packs');

      // One admin may end it: new GB requests use the built-in pack again.
      await row.getByRole('button', { name: 'Deactivate harbour-uk 1.0.0 for GB' }).click();
      await shown(second.getByText('Custom pack for GB deactivated: new requests there use the built-in pack again.'));
      await shown(second.getByRole('table', { name: 'Custom packs' }).getByRole('row', { name: /harbour-uk.*Approved by jwt:mary/ }));
      const after = (await api().get('/policies?jurisdiction=GB')).body as { packId: string; source: string }[];
      expect(after.map((p) => [p.packId, p.source])).not.toContainEqual(['harbour-uk', 'custom']);
    });

    it('keeps a document that is not JSON in the browser, and shows the problem of one the API refuses', async () => {
      const { page } = await signedIn('alan', 'policies');
      const sent = customPackPosts(page);
      await page.getByRole('button', { name: 'Register a custom pack' }).click();
      const form = page.getByRole('form', { name: 'Register a custom pack' });
      await form.getByLabel('Changelog').fill('A slower answer.');
      await form.getByLabel('Compatibility notes').fill('None.');
      const documentField = form.getByLabel('Pack document (JSON)');
      await documentField.fill('{ "packId": "harbour-slow", "version": "1.0.0", }');
      await form.getByRole('button', { name: 'Register the pack' }).click();
      await shown(form.getByText(/^This is not JSON: .+ Check the quotes, commas and brackets near that place\.$/));
      expect(await documentField.getAttribute('aria-invalid')).toBe('true');
      expect(sent).toEqual([]);
      await noViolations(page);

      // Three months where the law gives one: less protection, which the API refuses naming the rule.
      const slow = customPack('harbour-slow', 'Harbour Lines slow standard');
      slow.rules.default.period = { ...slow.rules.default.period, amount: 3 };
      await documentField.fill(JSON.stringify(slow));
      await form.getByRole('button', { name: 'Register the pack' }).click();
      const refusal = form.getByRole('alert').filter({ hasText: 'SVC-BE-1517' });
      await shown(refusal);
      await shown(refusal.getByText('The registration was refused:', { exact: false }));
      expect(await refusal.locator('.problem-fields li').count()).toBeGreaterThan(0);
      expect(sent).toEqual(['/api/v1/policies/custom/register']);
      expect((await api().get('/policies/harbour-slow?version=1.0.0')).status).toBe(404);
      await noViolations(page);
    });

    it('shows an operator the custom packs without the buttons of an admin', async () => {
      const admin = api();
      const version = { jurisdiction: 'GB-WLS', name: 'harbour-wales', version: '1.0.0' };
      const registration = {
        ...version,
        pack: customPack('harbour-wales', 'Harbour Lines Wales standard'),
        metadata: { changelog: 'First release.', compatibilityNotes: 'None.', releaseType: 'major' },
      };
      expect((await admin.post('/policies/custom/register', registration)).status).toBe(202);
      expect((await admin.as(KEYS.approverA.token).post('/policies/custom/approve', version)).status).toBe(202);
      expect((await admin.post('/policies/custom/activate', { ...version, tenantId: 'tenant-a' })).status).toBe(202);

      // A next version, registered and waiting for approval: an admin would be offered Approve and Activate.
      const next = {
        ...registration,
        version: '1.1.0',
        pack: customPack('harbour-wales', 'Harbour Lines Wales standard', { version: '1.1.0' }),
        metadata: { ...registration.metadata, releaseType: 'minor' },
      };
      expect((await admin.post('/policies/custom/register', next)).status).toBe(202);

      const { page } = await signedIn('ada', 'policies');
      const noAdminButtons = async () => {
        for (const name of [/^Register a custom pack/, /^Deactivate/, /^Approve/, /^Activate/]) expect(await page.getByRole('button', { name }).count()).toBe(0);
      };
      const row = page.getByRole('table', { name: 'Custom packs' }).getByRole('row', { name: /harbour-wales/ });
      await shown(row.getByRole('cell', { name: 'Active for the whole tenant' }));
      await row.getByRole('link', { name: 'Open harbour-wales 1.0.0 for GB-WLS' }).click();
      await shown(versionPanel(page, 'harbour-wales 1.0.0 for GB-WLS').getByText('Harbour Lines Wales standard, version 1.0.0'));
      await noAdminButtons();
      const open = page.getByRole('form', { name: 'Open a registered version' });
      await open.getByLabel('Pack id').fill('harbour-wales');
      await open.getByLabel('Jurisdiction').fill('GB-WLS');
      await open.getByLabel('Version').fill('1.1.0');
      await open.getByRole('button', { name: 'Open' }).click();
      const pending = versionPanel(page, 'harbour-wales 1.1.0 for GB-WLS');
      await shown(pending.getByText('Harbour Lines Wales standard, version 1.1.0'));
      await shown(pending.getByText('Registered', { exact: true }));
      await noAdminButtons();
      await noViolations(page);
    });
  });
});
