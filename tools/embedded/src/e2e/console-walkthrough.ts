import type { Locator, Page } from 'playwright-core';
import { saveScreenshot, waitFor } from '@dsar/platform/testing';
import { intake, ownPerson } from './api-client';
import { type ConsoleKit, referenceOf, SHOWN_WITHIN_MS, shown } from './console-kit';
import { KEYS } from './gateway-intake.scenarios';

/**
 * The console's walkthroughs (docs/console.md, "The walkthroughs"): what operators do to a request, click by click,
 * in the request page of Chromium, with what the page shows after each step. The steps read the page as an operator
 * does: by roles and labels, never by the API.
 */

/**
 * The timeline is the audit ledger's, which records an event moments after the action that caused it: the operator
 * looks again (a reload) until it is there. On a busy machine that takes seconds; a reload costs a silent sign-in.
 */
const RECORDED = { timeoutMs: 90_000, intervalMs: 1500 };

/** How long one walkthrough may take on a busy two-core machine: each of its steps may take SHOWN_WITHIN_MS. */
export const WALKTHROUGH_WITHIN_MS = SHOWN_WITHIN_MS * 20;

/** The small file Ada hands out: the account data an operator gathered, written by this test. */
export const ACCESS_EXPORT = {
  name: 'account-summary.json',
  mimeType: 'application/json',
  buffer: Buffer.from(`${JSON.stringify({ account: { plan: 'Basic', since: '2024-05-01' }, newsletters: ['product news'], orders: [{ id: 'W-17', total: 19.9 }] }, null, 2)}\n`),
};

/** The request page's facts panel (status, type, due date with its days-left badge). */
const facts = (page: Page) => page.getByRole('region', { name: 'Request', exact: true });

/** Waits until the request page shows `status` (its words, with or without the reason that follows). */
export async function statusShown(page: Page, status: string): Promise<void> {
  await shown(
    facts(page)
      .getByRole('definition')
      .filter({ hasText: new RegExp(`^${status}(?: \\(|$)`) }),
  );
}

/** The deadline picture, named by its explanation in words. */
export const deadlinePicture = (page: Page): Locator => page.getByRole('img', { name: /^Deadline:/ });

/** Selects the tab of the request page named `tab` and waits for its panel. */
export async function openTab(page: Page, tab: string): Promise<Locator> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  const panel = page.getByRole('tabpanel', { name: tab });
  await shown(panel);
  return panel;
}

/** Searches the queue by the request's reference and opens it from the one row found. */
export async function openFromQueue(page: Page, id: string): Promise<void> {
  await shown(page.getByRole('heading', { level: 1, name: 'Requests' }));
  await page.getByLabel('Reference').fill(referenceOf(id));
  await page.getByRole('button', { name: 'Apply' }).click();
  const rows = page.getByRole('table', { name: 'Requests' });
  const link = rows.getByRole('link', { name: referenceOf(id) });
  await shown(link);
  expect(await rows.getByRole('link').count()).toBe(1);
  await link.click();
  await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
}

/**
 * Runs a workflow action of the Actions panel: opens its form, lets `fill` fill it, confirms, and waits for the page's
 * "done" (the request read again).
 */
export async function act(page: Page, action: string, fill: (form: Locator) => Promise<unknown> = async () => undefined): Promise<void> {
  await page.getByRole('region', { name: 'Actions' }).getByRole('button', { name: action, exact: true }).click();
  const form = page.getByRole('form', { name: action });
  await shown(form);
  await fill(form);
  await form.getByRole('button', { name: 'Confirm', exact: true }).click();
  await shown(page.getByText(`${action}: done.`, { exact: true }));
}

/** Looks at the Timeline tab, reloading the page until it lists every one of `entries` (the events in words). */
export async function timelineShows(page: Page, id: string, entries: string[]): Promise<void> {
  await waitFor(
    `the timeline of ${referenceOf(id)} listing ${entries.join(', ')}`,
    async () => {
      const panel = await openTab(page, 'Timeline');
      await shown(panel.getByRole('list').or(panel.getByText('No events yet.')));
      for (const entry of entries) {
        if ((await panel.getByText(entry, { exact: true }).count()) === 0) {
          await page.reload();
          await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
          return false;
        }
      }
      return true;
    },
    RECORDED,
  );
}

/**
 * Issue [console]'s access walkthrough, up to the delivery prepared: a request arrives through the API as intake sends
 * it (DE, access, by email); then only the console. Ada finds it in the queue by its reference, acknowledges it,
 * verifies the requester's identity by a manual comparison (an access request needs it, docs/verification.md: under
 * the EU packs the days of the check are added to the deadline), uploads the account data on the manifest tab, and is
 * refused her own approval (four eyes: the button is offered, the API's 403 SVC-BE-1213 shows in place). Grace, in a
 * browser of her own, approves it, fulfils the request and prepares the delivery by email with a step-up token.
 * Every page is checked with axe; no page asks a host other than this machine. Answers the request's id.
 */
export async function workAccessRequestInConsole(kit: ConsoleKit): Promise<string> {
  const { api, signedIn, noViolations, getSystem } = kit;
  const person = ownPerson();
  const received = await api()
    .as(KEYS.intakeA.token)
    .post('/requests', intake({ requestor: person.requestor }, { contact: person.contact, receivedAt: getSystem().clock.daysAgo(0) }));
  expect(received.status).toBe(202);
  const id = received.body.id as string;

  // Ada: the queue, then the request.
  const ada = await signedIn('ada');
  const page = ada.page;
  await noViolations(page);
  await openFromQueue(page, id);
  await statusShown(page, 'Received');
  await shown(facts(page).getByText(/^\d+ days left$/));
  await shown(deadlinePicture(page));
  await timelineShows(page, id, ['Request created']);
  await noViolations(page);

  await act(page, 'Acknowledge', (form) => form.getByLabel('Message sent to the requester').fill('We have your request for a copy of your data and are working on it.'));
  await statusShown(page, 'In progress');

  // Identity: the sender's address is the one on the account; Ada compares the rest by hand.
  await act(page, 'Request verification', (form) => form.getByLabel('Method').selectOption('manual'));
  await statusShown(page, 'Waiting for verification');
  const verification = await openTab(page, 'Verification');
  await shown(verification.getByText('Manual comparison'));
  await noViolations(page);
  await verification.getByRole('combobox', { name: 'Decision' }).selectOption('approve');
  await verification.getByLabel('Note').fill('The request came from the address on the account; name and order history match.');
  await verification.getByRole('button', { name: 'Record decision' }).click();
  await shown(verification.getByText('Identity approved.'));
  await shown(verification.getByText(/^Approved by jwt:ada/));
  await statusShown(page, 'In progress');
  await timelineShows(page, id, ['Request acknowledged', 'Request clock paused', 'Request verification requested', 'Request clock resumed', 'Request verified', 'Verification approved']);
  // The check paused the clock: the picture draws the pause, and its name says so.
  expect(await deadlinePicture(page).getAttribute('aria-label')).toMatch(/paus/i);
  await noViolations(page);

  // The manifest: Ada uploads the file, and may not approve her own upload.
  const manifest = await openTab(page, 'Manifest and review');
  await shown(manifest.getByText('No manifest yet'));
  await manifest.getByLabel('File to upload').setInputFiles(ACCESS_EXPORT);
  await manifest.getByLabel('What it holds').selectOption('account_data');
  await manifest.getByRole('button', { name: 'Upload', exact: true }).click();
  await shown(manifest.getByRole('table', { name: 'Artifacts' }).getByText(ACCESS_EXPORT.name));
  await shown(manifest.getByText('Waiting for review (version 1)'));
  await noViolations(page);
  await manifest.getByRole('button', { name: 'Approve manifest' }).click();
  await shown(manifest.getByRole('alert').filter({ hasText: 'You cannot review this manifest' }).filter({ hasText: 'SVC-BE-1213' }));
  await noViolations(page);

  // Grace, from the address Ada sent her: approves, fulfils, prepares the delivery.
  const grace = await signedIn('grace', `requests/${id}`);
  const second = grace.page;
  await shown(second.getByRole('heading', { level: 1, name: referenceOf(id) }));
  const review = await openTab(second, 'Manifest and review');
  await review.getByLabel('Comment').fill('Checked the export against the account; nothing of anyone else in it.');
  await review.getByRole('button', { name: 'Approve manifest' }).click();
  await shown(review.getByText('Approved (version 1)'));
  await shown(review.getByText(/^Approved by jwt:grace \(version 1\)/));
  await noViolations(second);

  await act(second, 'Fulfil');
  await statusShown(second, 'Fulfilled');
  await shown(deadlinePicture(second));
  await timelineShows(second, id, ['Request verified', 'Fulfilment artifact uploaded', 'Fulfilment manifest reviewed', 'Request fulfilled', 'Fulfilment fulfilment recorded']);
  await saveScreenshot(second, 'walkthrough-access-request');
  await noViolations(second);

  const delivery = await openTab(second, 'Delivery');
  await delivery.getByLabel('Delivery channel').selectOption('email');
  await delivery.getByLabel('Security level').selectOption('token');
  await delivery.getByRole('button', { name: 'Prepare delivery' }).click();
  await shown(delivery.getByText(`Delivery prepared: Email, token (step-up), 1 artifact (${ACCESS_EXPORT.name}).`));
  await shown(delivery.getByRole('table', { name: 'Delivery log' }).getByRole('cell', { name: 'Delivery prepared' }));
  await noViolations(second);
  await timelineShows(second, id, ['Request fulfilled', 'Delivery prepared']);

  expect({ ada: ada.thirdPartyRequests(), grace: grace.thirdPartyRequests() }).toEqual({ ada: [], grace: [] });
  return id;
}
