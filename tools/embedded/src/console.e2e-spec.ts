import { saveScreenshot, waitFor } from '@dsar/platform/testing';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { ownPerson, intake } from './e2e/api-client';
import { referenceOf, SHOWN_WITHIN_MS, shown, withConsole } from './e2e/console-kit';

/**
 * The operator console in a real browser (Debian's Chromium driven by Playwright) against an embedded system whose
 * gateway trusts a real OpenID Connect issuer (oidc-provider, in a process of its own): operators sign in through the
 * issuer, work the queue and a request, and see what the API refuses. docs/console.md.
 */

jest.setTimeout(180_000);

describe('the operator console in Chromium, signed in through an OpenID Connect issuer (embedded mode)', () => {
  withConsole('console', (kit) => {
    const { api, signedIn, newRequest, noViolations, getSystem } = kit;

    it('signs an operator in through the issuer and shows the queue, with no third-party request and no error', async () => {
      const id = await newRequest();
      const { page, thirdPartyRequests, errors } = await signedIn('ada');
      await shown(page.getByRole('heading', { level: 1, name: 'Requests' }));
      await shown(page.getByRole('link', { name: referenceOf(id) }));
      await shown(page.getByText('jwt:ada'));
      await saveScreenshot(page, 'console-queue');
      await noViolations(page);
      expect(thirdPartyRequests()).toEqual([]);
      expect(errors()).toEqual([]);
    });

    it('draws the deadline of a paused and extended request, with the explanation in words', async () => {
      const clock = getSystem().clock;
      const id = await newRequest(clock.daysAgo(10));
      expect((await api().post(`/requests/${id}/clock/pauses`, { reason: 'verification', at: clock.daysAgo(8), note: 'ID document asked for' })).status).toBe(202);
      expect((await api().post(`/requests/${id}/clock/resume`, { at: clock.daysAgo(5) })).status).toBe(202);
      expect((await api().post(`/requests/${id}/extensions`, { reason: 'Many systems hold data of this person.' })).status).toBe(202);
      const { page } = await signedIn('ada', `requests/${id}`);
      await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
      const picture = page.getByRole('img', { name: /^Deadline:/ });
      await shown(picture);
      expect(await picture.getAttribute('aria-label')).toMatch(/paus/i);
      await saveScreenshot(page, 'console-request-deadline');
      await noViolations(page);
    });

    it("shows the API's problem next to an action it refuses, and changes nothing", async () => {
      const id = await newRequest();
      const { page } = await signedIn('ada', `requests/${id}`);
      const acknowledge = page.getByRole('button', { name: 'Acknowledge', exact: true });
      await shown(acknowledge);
      // A colleague acknowledges it meanwhile: the page still offers the action, and the API refuses it.
      expect((await api().as(KEYS.operatorA.token).post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      const before = (await api().get(`/requests/${id}/timeline`)).body.events.length as number;
      await acknowledge.click();
      await page
        .getByRole('button', { name: /^(Confirm|Acknowledge)$/ })
        .last()
        .click();
      await shown(page.getByRole('alert').filter({ hasText: 'SVC-BE-1401' }));
      expect((await api().get(`/requests/${id}/timeline`)).body.events.length).toBe(before);
    });

    it("answers another tenant's request as one that does not exist", async () => {
      const id = await newRequest();
      const { page } = await signedIn('eve', `requests/${id}`);
      await shown(page.getByText('No request with this id'));
      expect(await page.getByRole('img', { name: /^Deadline:/ }).count()).toBe(0);
    });

    it('shows an auditor the request and its deadline without a single action button', async () => {
      const id = await newRequest();
      const { page } = await signedIn('ian', `requests/${id}`);
      await shown(page.getByRole('img', { name: /^Deadline:/ }));
      for (const name of ['Acknowledge', 'Refuse', 'Close', 'Extend deadline', 'Pause clock', 'Request verification']) {
        expect({ name, buttons: await page.getByRole('button', { name, exact: true }).count() }).toEqual({ name, buttons: 0 });
      }
    });

    it('signs in with an API key as well, when configured to', async () => {
      const opened = await kit.opened();
      await opened.page.getByLabel('API key').fill(KEYS.operatorA.token);
      await opened.page.getByRole('button', { name: 'Sign in with key' }).click();
      await shown(opened.page.getByRole('heading', { level: 1, name: 'Requests' }));
      await shown(opened.page.getByText(/^key:[0-9a-f]{16}$/));
    });

    it("keeps the view in the address, but never the person's identity", async () => {
      const person = ownPerson();
      const email = person.requestor.email as string;
      const res = await api().post('/requests', intake({ requestor: person.requestor }, { contact: person.contact, receivedAt: getSystem().clock.daysAgo(0) }));
      const { page } = await signedIn('ada');
      await page.getByLabel('Person (email, phone or account)').fill(email.toUpperCase());
      await page.getByLabel('Identity kind').selectOption('email');
      await page.getByRole('button', { name: 'Apply' }).click();
      await shown(page.getByRole('link', { name: referenceOf(res.body.id as string) }));
      // The new request is on the unfiltered first page too: wait until the search's answer has replaced those rows.
      const rows = page.getByRole('table', { name: 'Requests' }).getByRole('link');
      await waitFor("only the person's request listed", async () => (await rows.count()) === 1, { timeoutMs: SHOWN_WITHIN_MS });
      expect(page.url().toLowerCase()).not.toContain(email.toLowerCase().split('@')[0]);
      await page.getByLabel('Sort by').selectOption('dueAt');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/sortBy=dueAt/, { timeout: SHOWN_WITHIN_MS });
    });

    it('renews the access token before it expires, without a page load', async () => {
      const { page } = await signedIn('grace');
      const renewed = page.waitForRequest((r) => r.url().startsWith(kit.issuer().url) && r.url().includes('/token'), { timeout: 60_000 });
      await renewed;
      const id = await newRequest();
      await page.goto(kit.consoleUrl(`requests/${id}`));
      await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
    });

    it('fits a phone, without accessibility violations', async () => {
      await newRequest();
      const { page } = await signedIn('ada', '', 'phone');
      await shown(page.getByRole('heading', { level: 1, name: 'Requests' }));
      // Wider than the screen: the page scrolls sideways (the expression runs in the page, where `document` is).
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await saveScreenshot(page, 'console-queue-phone');
      await noViolations(page);
    });

    it('signs out at the issuer', async () => {
      const { page } = await signedIn('ada');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await shown(page.getByRole('button', { name: 'Sign in', exact: true }));
    });
  });
});
