import { waitFor } from '@dsar/platform/testing';
import type { Page } from 'playwright-core';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { referenceOf, SHOWN_WITHIN_MS, shown, withConsole } from './e2e/console-kit';

/**
 * The request page's outcome tabs in Chromium (docs/console.md): the delivery of a fulfilled request, its
 * notification history with Replay, its appeals and their decision, and its audit chain verified in the page; an
 * auditor verifies but is offered nothing that acts.
 */

jest.setTimeout(240_000);

/** The notifier's history follows its events within moments; a busy machine takes longer. */
const POLL = { timeoutMs: 60_000, intervalMs: 500 };
/** The notifier dispatches often, and the tests poll the API: no rate limit. */
const SETTINGS = { NOTIFIER_DISPATCH_INTERVAL_MS: 200 };

describe("the console's delivery, notifications, appeals and audit chain tabs (embedded mode)", () => {
  withConsole(
    'console-tabs-outcome',
    (kit) => {
      const { api, signedIn, newRequest, noViolations, getSystem } = kit;

      /** A fulfilled access request with one artifact: an operator acknowledges and uploads, the admin approves (four eyes) and fulfils. */
      async function fulfilledRequest(): Promise<string> {
        const id = await newRequest();
        const operator = api().as(KEYS.operatorA.token);
        expect((await operator.post(`/requests/${id}/acknowledgements`, { message: 'We have your request.' })).status).toBe(202);
        const upload = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/manifest/artifact/upload`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${KEYS.operatorA.token}`,
            'content-type': 'application/octet-stream',
            'x-artifact-filename': encodeURIComponent('account-export.pdf'),
            'x-artifact-content-type': 'application/pdf',
          },
          body: Buffer.from('%PDF-1.7\n% the account export of a test person\n'),
        });
        expect(upload.status).toBe(202);
        expect((await api().post(`/requests/${id}/manifest/validate`, { action: 'approved' })).status).toBe(202);
        expect((await api().post(`/requests/${id}/fulfilment`, {})).status).toBe(202);
        return id;
      }

      /** The request page of `id`, signed in as `login`, on the tab named `tab`. */
      async function onTab(login: 'ada' | 'ian', id: string, tab: string): Promise<Page> {
        const { page } = await signedIn(login, `requests/${id}`);
        await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
        await page.getByRole('tab', { name: tab, exact: true }).click();
        await shown(page.getByRole('tabpanel', { name: tab }));
        return page;
      }

      /** Waits until the notifier has recorded the acknowledgement (the history follows the event within moments). */
      const acknowledgementSent = (id: string) =>
        waitFor(
          'the acknowledgement in the notification history',
          async () => {
            const events = (await api().get(`/requests/${id}/notifications`)).body.events as Array<{ eventType: string; status: string }>;
            return events.some((e) => e.eventType === 'request_acknowledged') || undefined;
          },
          POLL,
        );

      it('prepares the delivery of a fulfilled request, issues the step-up token once, and shows the log', async () => {
        const id = await fulfilledRequest();
        const page = await onTab('ada', id, 'Delivery');
        await page.getByLabel('Delivery channel').selectOption('email');
        await page.getByLabel('Security level').selectOption('token');
        await page.getByRole('button', { name: 'Prepare delivery' }).click();
        await shown(page.getByText(/Delivery prepared: Email, token \(step-up\), 1 artifact \(account-export\.pdf\)/));
        const log = page.getByRole('table', { name: 'Delivery log' });
        await shown(log.getByRole('cell', { name: 'Delivery prepared' }));
        await page.getByRole('button', { name: 'Issue step-up token' }).click();
        await shown(page.getByText('Shown once:'));
        const token = await page.getByRole('textbox', { name: 'Step-up token' }).inputValue();
        expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
        await shown(log.getByRole('cell', { name: 'Step-up token issued' }));
        // The token shown opens the gate: the API completes the challenge with it.
        expect((await api().post(`/requests/${id}/delivery/step-up/complete`, { token })).status).toBe(202);
        await noViolations(page);
      });

      it('lists the acknowledgement in the notification history and replays it', async () => {
        const id = await fulfilledRequest();
        await acknowledgementSent(id);
        const page = await onTab('ada', id, 'Notifications');
        const row = page.getByRole('table', { name: 'Notifications' }).getByRole('row').filter({ hasText: 'Request acknowledged' });
        await shown(row);
        await shown(row.getByRole('cell', { name: 'Data subject' }));
        await noViolations(page);
        await row.getByRole('button', { name: /^Replay/ }).click();
        await shown(page.getByText('Request acknowledged to data subject: sent again.'));
        await waitFor(
          'a second attempt of the acknowledgement',
          async () => {
            const events = (await api().get(`/requests/${id}/notifications`)).body.events as Array<{ eventType: string; attempts: unknown[] }>;
            return (events.find((e) => e.eventType === 'request_acknowledged')?.attempts.length ?? 0) >= 2 || undefined;
          },
          POLL,
        );
      });

      it('verifies the audit chain as valid in the page', async () => {
        const id = await fulfilledRequest();
        const page = await onTab('ada', id, 'Audit chain');
        await page.getByRole('button', { name: 'Verify the chain' }).click();
        await shown(page.getByText(/^Valid: the chain holds together up to entry \d+/));
        // A hash that is not the entry's: the page says so, and where.
        await page.getByRole('textbox', { name: 'Entry (sequence)' }).fill('1');
        await page.getByRole('textbox', { name: 'Hash', exact: true }).fill(`sha256:${'0'.repeat(64)}`);
        await page.getByRole('button', { name: 'Verify this hash' }).click();
        await shown(page.getByText(/^Not matched: the chain holds together, but entry 1 does not have the hash given\./));
        await noViolations(page);
      });

      it('decides an appeal in the page, and shows the refusal of a second decision inline', async () => {
        const id = await fulfilledRequest();
        const filed = await api().post(`/requests/${id}/appeals`, { message: 'I believe more data about me is held.' });
        expect(filed.status).toBe(202);
        const page = await onTab('ada', id, 'Appeals');
        await shown(page.getByRole('heading', { name: 'Appeal 1: Waiting for a decision' }));
        await noViolations(page);
        // A colleague decides it meanwhile: the page still offers the form, and the API refuses.
        expect((await api().as(KEYS.operatorA.token).post(`/requests/${id}/appeals/${filed.body.appealId}/decide`, { decision: 'deny' })).status).toBe(202);
        await page.getByRole('combobox', { name: 'Decision (required)' }).selectOption('deny');
        await page.getByRole('button', { name: 'Record decision' }).click();
        await shown(page.getByRole('alert').filter({ hasText: 'The decision was refused' }));
      });

      it(
        'lets an auditor verify the chain, without Prepare, token or Replay',
        async () => {
          const id = await fulfilledRequest();
          await acknowledgementSent(id);
          const delivery = await onTab('ian', id, 'Delivery');
          await shown(delivery.getByRole('heading', { name: 'Delivery log' }));
          for (const name of ['Prepare delivery', 'Issue step-up token']) expect({ name, count: await delivery.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
          await delivery.getByRole('tab', { name: 'Notifications', exact: true }).click();
          await shown(delivery.getByRole('table', { name: 'Notifications' }).getByRole('row').filter({ hasText: 'Request acknowledged' }));
          expect(await delivery.getByRole('button', { name: /^Replay/ }).count()).toBe(0);
          await delivery.getByRole('tab', { name: 'Audit chain', exact: true }).click();
          await delivery.getByRole('button', { name: 'Verify the chain' }).click();
          await shown(delivery.getByText(/^Valid: the chain holds together/));
          await noViolations(delivery);
        },
        SHOWN_WITHIN_MS * 8,
      );
    },
    SETTINGS,
  );
});
