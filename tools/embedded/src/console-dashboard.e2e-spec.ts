import { saveScreenshot, waitFor } from '@dsar/platform/testing';
import { referenceOf, SHOWN_WITHIN_MS, shown, withConsole } from './e2e/console-kit';

/**
 * The console's dashboard in Chromium (docs/console.md#dashboard): the figures of the requests and data-system tasks
 * this test made, a figure opening the queue view it counts, the phone layout, another tenant's empty figures, and an
 * axe check of each.
 */

jest.setTimeout(180_000);

const DAY = 86_400_000;

describe('the dashboard of the console in Chromium (embedded mode)', () => {
  withConsole('console-dashboard', (kit) => {
    const { api, signedIn, newRequest, noViolations, getSystem } = kit;
    /** The requests the test made, by what they stand for. */
    const made: Record<string, string> = {};

    beforeAll(async () => {
      const admin = api();
      // A pull system no connector works: its tasks wait, and one made for an overdue request is past due at once.
      const system = await admin.call('PUT', '/api/v1/data-systems/crm', {
        json: { displayName: 'Customer CRM', owner: { email: 'crm-owners@tenant-a.example' }, actions: ['access'], identityTypes: ['email'], mode: 'pull' },
      });
      expect(system.status).toBe(201);
      const clock = getSystem().clock;
      made.fresh = await newRequest(clock.daysAgo(0));
      made.dueSoon = await newRequest(clock.daysAgo(26));
      made.overdue = await newRequest(clock.daysAgo(40));
      made.closed = await newRequest(clock.daysAgo(6));
      for (const id of [made.dueSoon, made.overdue]) expect((await admin.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      expect((await admin.post(`/requests/${made.closed}/closures`, {})).status).toBe(202);
      for (const id of [made.dueSoon, made.overdue]) {
        await waitFor(`the task of ${id}`, async () => ((await admin.get(`/requests/${id}/tasks`)).body.items as unknown[] | undefined)?.length === 1, { timeoutMs: SHOWN_WITHIN_MS });
      }
      // The premises of the figures: one request due within the week, one overdue for more than a week.
      const dueAt = async (id: string) => Date.parse((await admin.get(`/requests/${id}`)).body.dueAt as string);
      const now = clock.now().getTime();
      const soon = (await dueAt(made.dueSoon)) - now;
      expect(soon > 0 && soon <= 7 * DAY).toBe(true);
      expect(now - (await dueAt(made.overdue))).toBeGreaterThan(7 * DAY);
      expect((await dueAt(made.fresh)) - now).toBeGreaterThan(7 * DAY);
    });

    it('shows the figures of the requests and tasks the test made, and is reached from the navigation', async () => {
      const { page } = await signedIn('ada');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).click();
      await shown(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
      expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');

      await shown(page.getByRole('link', { name: '3 open requests' }));
      const byStatus = page.getByRole('list', { name: 'Open requests by status' });
      for (const name of ['1 Received', '2 In progress', '0 Waiting for clarification', '0 Waiting for verification']) await shown(byStatus.getByRole('link', { name, exact: true }));
      const deadlines = page.getByRole('list', { name: 'Deadlines' });
      await shown(deadlines.getByRole('link', { name: '2 At risk (needs attention)' }));
      await shown(deadlines.getByRole('link', { name: '1 Overdue (needs attention)' }));
      await shown(deadlines.getByText('1 Due this week', { exact: true }));
      await shown(deadlines.getByText('0 Overdue since this week', { exact: true }));
      await shown(page.getByText('6 days 0 hours', { exact: true }));
      await shown(page.getByText('Median over 1 closed request in the last 30 days, from receipt to decision'));

      const tasks = page.getByRole('list', { name: 'Data-system tasks' });
      await shown(tasks.getByText('2 Open tasks', { exact: true }));
      await shown(tasks.getByText('1 Past their due date (needs attention)', { exact: true }));
      const pastDue = page.getByRole('table', { name: 'Tasks past their due date by data system' });
      const row = pastDue.getByRole('row', { name: /^Customer CRM crm/ });
      await shown(row.getByRole('cell', { name: '1', exact: true }));
      await shown(row.getByText(/^overdue by \d+ days? \d+ hours?, due /));

      await saveScreenshot(page, 'console-dashboard');
      await noViolations(page);
    });

    it('opens the queue view a figure counts', async () => {
      const { page } = await signedIn('ada', 'dashboard');
      await page
        .getByRole('list', { name: 'Deadlines' })
        .getByRole('link', { name: /^2 At risk/ })
        .click();
      await page.waitForURL(/\/console\/requests\?atRiskDays=7&sortBy=dueAt&sortOrder=asc$/, { timeout: SHOWN_WITHIN_MS });
      await shown(page.getByRole('heading', { level: 1, name: 'Requests' }));
      const queue = page.getByRole('table', { name: 'Requests' });
      await shown(queue.getByRole('link', { name: referenceOf(made.overdue) }));
      await shown(queue.getByRole('link', { name: referenceOf(made.dueSoon) }));
      expect(await queue.getByRole('link').count()).toBe(2);
      // The view the link opened is the queue's own: its form shows the filter.
      expect(await page.getByLabel('At risk within (days)').inputValue()).toBe('7');

      await page.goBack();
      await page.getByRole('list', { name: 'Open requests by status' }).getByRole('link', { name: '1 Received', exact: true }).click();
      await page.waitForURL(/\/console\/requests\?status=received$/, { timeout: SHOWN_WITHIN_MS });
      await shown(queue.getByRole('link', { name: referenceOf(made.fresh) }));
      expect(await queue.getByRole('link').count()).toBe(1);
    });

    it('fits a phone, without accessibility violations', async () => {
      const { page } = await signedIn('ada', 'dashboard', 'phone');
      await shown(page.getByRole('link', { name: '3 open requests' }));
      await shown(page.getByRole('table', { name: 'Tasks past their due date by data system' }));
      // Wider than the screen: the page scrolls sideways (the expression runs in the page, where `document` is).
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await saveScreenshot(page, 'console-dashboard-phone');
      await noViolations(page);
    });

    it("shows another tenant's operator none of these requests or tasks", async () => {
      const { page } = await signedIn('eve', 'dashboard');
      await shown(page.getByRole('link', { name: '0 open requests' }));
      await shown(page.getByText('No request was closed in the last 30 days'));
      await shown(page.getByText('No open task is past its due date.'));
      expect(await page.getByText(/Customer CRM/).count()).toBe(0);
    });
  });
});
