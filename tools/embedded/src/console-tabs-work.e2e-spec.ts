import type { Page } from 'playwright-core';
import { waitFor } from '@dsar/platform/testing';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { referenceOf, SHOWN_WITHIN_MS, shown, withConsole } from './e2e/console-kit';

/**
 * The request page's tabs of the work on a request, in a real browser against an embedded system: the verification
 * case with its evidence files, the data systems' tasks with what an operator does to them, and the manifest with
 * its upload and four-eyes review. docs/console.md.
 */

jest.setTimeout(240_000);

/** A short PDF of our own: the evidence upload recognizes a file's type by its first bytes. */
const EVIDENCE_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

async function openTab(page: Page, id: string, tab: string): Promise<void> {
  await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await shown(page.getByRole('tabpanel', { name: tab }));
}

describe('the request tabs of verification, tasks and the manifest in Chromium (embedded mode)', () => {
  withConsole('console-tabs-work', (kit) => {
    const { api, signedIn, newRequest, noViolations, getSystem } = kit;

    it('uploads an artifact, refuses the uploader her own review (four eyes) and lets a colleague approve it', async () => {
      const id = await newRequest();
      const { page } = await signedIn('ada', `requests/${id}`);
      await openTab(page, id, 'Manifest and review');
      await shown(page.getByText('No manifest yet'));
      await page.getByLabel('File to upload').setInputFiles({ name: 'orders-export.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ orders: [{ id: 'A-1', total: 42 }] })) });
      await page.getByLabel('What it holds').selectOption('account_data');
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await shown(page.getByRole('table', { name: 'Artifacts' }).getByText('orders-export.json'));
      await shown(page.getByText('Waiting for review (version 1)'));
      await noViolations(page);

      await page.getByRole('button', { name: 'Approve manifest' }).click();
      await shown(page.getByRole('alert').filter({ hasText: 'SVC-BE-1213' }));
      expect((await api().get(`/requests/${id}/manifest`)).body.validationState).toBe('pending');
      await noViolations(page);

      const grace = await signedIn('grace', `requests/${id}`);
      await openTab(grace.page, id, 'Manifest and review');
      await grace.page.getByLabel('Comment').fill('Checked against the order system.');
      await grace.page.getByRole('button', { name: 'Approve manifest' }).click();
      await shown(grace.page.getByText('Approved (version 1)'));
      const manifest = (await api().get(`/requests/${id}/manifest`)).body;
      expect({ state: manifest.validationState, by: manifest.review.by }).toEqual({ state: 'approved', by: 'jwt:grace' });
    });

    it('marks the task of a manual data system done, with the evidence', async () => {
      const registered = await api().call('PUT', '/api/v1/data-systems/paper-archive', {
        json: { displayName: 'Paper archive', mode: 'manual', actions: ['access'], owner: { email: 'archive@tenant-a.example' }, identityTypes: ['email'], dataCategories: ['contact_details'] },
      });
      expect([200, 201]).toContain(registered.status);
      const id = await newRequest();
      // Acknowledged, the request is in progress and fans out to the tenant's systems.
      expect((await api().post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      const task = await waitFor('the paper archive task', async () => {
        const items = (await api().get(`/requests/${id}/tasks`)).body.items as Array<{ id: string; systemKey: string; state: string }>;
        return items.find((t) => t.systemKey === 'paper-archive' && t.state === 'queued');
      });

      const { page } = await signedIn('ada', `requests/${id}`);
      await openTab(page, id, 'Systems and tasks');
      const row = page.getByRole('table', { name: 'Tasks' }).getByRole('row').filter({ hasText: 'paper-archive' });
      await shown(row.getByText('Queued'));
      await noViolations(page);
      await row.getByRole('button', { name: /^Mark done/ }).click();
      // Sent without evidence: the form says what is missing, and nothing is sent.
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      await shown(page.getByText('Required.'));
      await page.getByLabel('Evidence').fill('Searched the paper files by hand, ticket ARCH-12.');
      await page.getByRole('button', { name: 'Confirm', exact: true }).click();
      await shown(row.getByText('Complete'));
      await shown(page.getByText('The task of paper-archive was marked done.'));
      await noViolations(page);
      const settled = ((await api().get(`/requests/${id}/tasks`)).body.items as Array<{ id: string; state: string; answeredBy: string }>).find((t) => t.id === task.id);
      expect(settled).toMatchObject({ state: 'complete', answeredBy: 'jwt:ada' });
    });

    it('shows the verification case with its evidence file, and downloads it', async () => {
      const id = await newRequest();
      expect((await api().post(`/requests/${id}/verification/request`, { method: 'document' })).status).toBe(202);
      const uploaded = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/verification/evidence/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.adminA.token}`, 'content-type': 'application/octet-stream', 'x-evidence-filename': 'passport-scan.pdf' },
        body: EVIDENCE_PDF,
      });
      expect(uploaded.status).toBe(202);

      const { page } = await signedIn('ada', `requests/${id}`);
      await openTab(page, id, 'Verification');
      await shown(page.getByText('Identity document'));
      const files = page.getByRole('table', { name: 'Evidence files' });
      await shown(files.getByText('passport-scan.pdf'));
      await shown(files.getByText('application/pdf'));
      await noViolations(page);
      const download = page.waitForEvent('download', { timeout: SHOWN_WITHIN_MS });
      await files.getByRole('button', { name: /^Download/ }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('passport-scan.pdf');

      // The auditor reads the case, but neither downloads evidence nor decides.
      const ian = await signedIn('ian', `requests/${id}`);
      await openTab(ian.page, id, 'Verification');
      await shown(ian.page.getByRole('table', { name: 'Evidence files' }).getByText('passport-scan.pdf'));
      expect(await ian.page.getByRole('button', { name: /^Download/ }).count()).toBe(0);
      expect(await ian.page.getByRole('button', { name: 'Record decision' }).count()).toBe(0);
    });
  });
});
