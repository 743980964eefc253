import { Pool } from 'pg';
import { type Connector, pullFeed, runConnector, silentLogger } from '@dsar/connector-sdk';
import { SAMPLE_CUSTOMERS, setupShop, shopHandler } from '@dsar/example-connector';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { databaseUrl, type ReceivedMail, saveScreenshot, startMailServer, type TestMailServer, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { intake } from './e2e/api-client';
import { shown, withConsole } from './e2e/console-kit';
import { ACCESS_EXPORT, act, openFromQueue, openTab, statusShown, timelineShows, WALKTHROUGH_WITHIN_MS, workAccessRequestInConsole } from './e2e/console-walkthrough';
import { PortalPage } from './e2e/portal-page';
import { CONNECTOR_KEYS } from './e2e/data-systems.scenarios';
import { KEYS } from './e2e/gateway-intake.scenarios';

/**
 * Issue [console]'s walkthroughs in Chromium against an embedded system (docs/console.md, "The walkthroughs"): an
 * access request worked entirely in the console by two operators (four eyes) up to its delivery, and an erasure
 * request whose data-system task the example connector answers on a real PostgreSQL shop, settled in the console.
 */

/** The download link in the first email: the page's address, a link id and its credential in the fragment. */
const PORTAL_LINK = /http:\/\/[^\s/]+\/portal\/#[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/;
/** The code in the second email, as it prints it (`1234 5678`). */
const SPACED_CODE = /\b[0-9]{4} [0-9]{4}\b/;

// Starting the system, the issuer and Chromium on a busy machine; each walkthrough has its own, longer bound.
jest.setTimeout(240_000);

describe('the access walkthrough: a request worked entirely in the console by two operators, then downloaded by the person (embedded mode)', () => {
  // The person's two emails go to a real SMTP server of the test's own.
  let mail: TestMailServer;
  beforeAll(async () => {
    mail = await startMailServer();
  });
  afterAll(() => mail?.close());

  withConsole(
    'walkthrough-access',
    (kit) => {
      const pages: PortalPage[] = [];
      afterAll(async () => {
        for (const portal of pages) await portal.close().catch(() => undefined);
      });

      it(
        'takes an access request from the queue through acknowledgement, verification, upload, four eyes and fulfilment to the person downloading it with the link and the code',
        async () => {
          const id = await workAccessRequestInConsole(kit);
          // What the pages showed is what the API holds.
          const request = (await kit.api().get(`/requests/${id}`)).body;
          expect(request).toMatchObject({ status: 'fulfilled', requestType: 'access', jurisdiction: 'DE' });
          const manifest = (await kit.api().get(`/requests/${id}/manifest`)).body;
          expect({ state: manifest.validationState, by: manifest.review.by }).toEqual({ state: 'approved', by: 'jwt:grace' });

          // The delivery by email sent the person two messages: the link, and the code apart from it.
          const sent = await waitFor(
            'the two delivery emails sent (or failed)',
            async () => {
              const res = await kit.api().get(`/requests/${id}/notifications`);
              if (res.status !== 200) throw new Error(`the notifications answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
              const history = res.body as { events: Array<{ eventType: string; status: string; attempts: Array<{ error?: string }> }> };
              const ofDelivery = history.events.filter((n) => n.eventType === 'delivery_prepared' || n.eventType === 'delivery_code');
              if (ofDelivery.length === 2 && ofDelivery.every((n) => n.status === 'delivered' || n.status === 'failed')) return ofDelivery;
              // Not yet: what the history says, should the wait time out.
              throw new Error(ofDelivery.map((n) => `${n.eventType} ${n.status} ${n.attempts.at(-1)?.error ?? ''}`).join('; ') || 'no delivery notification yet');
            },
            // Slow enough for the gateway's rate limit of the admin key, which the console's pages share.
            { timeoutMs: WALKTHROUGH_WITHIN_MS / 4, intervalMs: 1_000 },
          );
          // A failure shows its last error.
          expect(sent.map((n) => `${n.eventType} ${n.status}${n.status === 'failed' ? `: ${n.attempts.at(-1)?.error}` : ''}`).sort()).toEqual([
            'delivery_code delivered',
            'delivery_prepared delivered',
          ]);
          const to = (request.requestor.email as string).toLowerCase();
          const forPerson = (m: ReceivedMail) => m.envelope.to.map((a) => a.toLowerCase()).includes(to);
          const linkMail = await mail.waitFor((m) => forPerson(m) && PORTAL_LINK.test(m.parsed.text ?? ''), WALKTHROUGH_WITHIN_MS / 4);
          const codeMail = await mail.waitFor((m) => forPerson(m) && !PORTAL_LINK.test(m.parsed.text ?? '') && SPACED_CODE.test(m.parsed.text ?? ''), WALKTHROUGH_WITHIN_MS / 4);
          const link = PORTAL_LINK.exec(linkMail.parsed.text ?? '')![0];
          const code = SPACED_CODE.exec(codeMail.parsed.text ?? '')![0];
          expect(linkMail.parsed.text).not.toContain(code);
          expect(codeMail.parsed.text).not.toContain(link.split('#')[1]);

          // The person opens the link on a phone, enters the code as the email shows it, and downloads the file.
          const portal = await PortalPage.open(kit.browser(), link, { viewport: 'phone' });
          pages.push(portal);
          await portal.enterCode(code);
          expect(await portal.files()).toEqual([ACCESS_EXPORT.name]);
          const file = await portal.download(ACCESS_EXPORT.name);
          expect({ filename: file.filename, bytes: file.bytes.toString('utf8') }).toEqual({ filename: ACCESS_EXPORT.name, bytes: ACCESS_EXPORT.buffer.toString('utf8') });
          await saveScreenshot(portal.page, 'walkthrough-person-downloaded');
          await kit.noViolations(portal.page);
          expect(portal.opened.thirdPartyRequests()).toEqual([]);

          // The operators see it: the download is on the request's delivery tab, by the person.
          const { page } = await kit.signedIn('ada', `requests/${id}`);
          await openTab(page, 'Delivery');
          await shown(page.getByText('subject:download-page').first());
        },
        WALKTHROUGH_WITHIN_MS,
      );
    },
    // The notifier dispatches often, so that the person's emails arrive within moments.
    () => ({ SMTP_URL: mail.url, NOTIFIER_DISPATCH_INTERVAL_MS: 200 }),
  );
});

/** The sample customer whose erasure the walkthrough asks for: one order, so both of the shop's tables hold rows. */
const MAX = SAMPLE_CUSTOMERS.find((c) => c.email === 'max@example.org')!;

describe('the erasure walkthrough: a task answered by the example connector, settled in the console (embedded mode)', () => {
  withConsole(
    'walkthrough-erasure',
    (kit) => {
      const { api, signedIn, noViolations, getSystem } = kit;

      // A block of its own: its afterAll (the connector stopped, the shop dropped) runs before the system closes.
      describe('with the example shop on PostgreSQL', () => {
        const schema = `walkthrough_shop_${uniqueSuffix()}`;
        const pool = new Pool({ connectionString: databaseUrl(), max: 4 });
        let connector: Connector | undefined;
        const customers = async (email: string) => (await pool.query(`SELECT count(*)::int AS n FROM "${schema}".customer WHERE email = $1`, [email])).rows[0].n as number;

        beforeAll(() => setupShop(pool, schema, { seed: SAMPLE_CUSTOMERS }), 60_000);

        afterAll(async () => {
          await connector?.stop({ abandon: true, timeoutMs: 2000 }).catch(() => undefined);
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
          await pool.end();
        }, 60_000);

        it(
          "registers the shop in the console, erases the customer's rows through its connector, and fulfils and closes the request in the console",
          async () => {
            // Alan registers the shop as a pull system that erases.
            const alan = await signedIn('alan', 'data-systems');
            await shown(alan.page.getByRole('heading', { level: 1, name: 'Data systems' }));
            await alan.page.getByRole('button', { name: 'Register a data system' }).click();
            await alan.page.getByLabel('Key').fill('shop');
            await alan.page.getByLabel('Name').fill('Web shop');
            await alan.page.getByLabel('Owner email').fill('shop-owners@tenant-a.example');
            await alan.page.getByLabel('Mode').selectOption('pull');
            await alan.page.getByRole('checkbox', { name: 'Erasure' }).check();
            await alan.page.getByLabel('Data categories').fill('contact_details, orders');
            await noViolations(alan.page);
            await alan.page.getByRole('button', { name: 'Register', exact: true }).click();
            await shown(alan.page.getByText('Data system shop registered.'));
            await shown(alan.page.getByRole('table', { name: 'Data systems' }).getByRole('cell', { name: 'Web shop' }));
            await noViolations(alan.page);

            // The shop's connector: the example connector's handler, listing its pending tasks over HTTP.
            connector = await runConnector({
              baseUrl: `${getSystem().gatewayUrl}/api/v1`,
              apiKey: CONNECTOR_KEYS.connectorA.token,
              systemKey: 'shop',
              worker: 'shop-1',
              feed: pullFeed({ intervalMs: 500 }),
              handler: shopHandler(pool, schema, { performedBy: 'example-connector shop-1', now: () => getSystem().clock.now() }),
              leaseSeconds: 60,
              backoff: { attempts: 4, baseMs: 50, maxMs: 500 },
              log: silentLogger,
            });

            // Max writes in; intake sends the request.
            const received = await api()
              .as(KEYS.intakeA.token)
              .post(
                '/requests',
                intake(
                  { requestType: 'deletion', requestor: { type: 'subject', name: MAX.name, email: MAX.email } },
                  { contact: MAX.email, rawText: 'Please close my account and delete everything you hold about me.', receivedAt: getSystem().clock.daysAgo(0) },
                ),
              );
            expect(received.status).toBe(202);
            const id = received.body.id as string;

            // Ada acknowledges it: in progress, it reaches the shop.
            const ada = await signedIn('ada');
            const page = ada.page;
            await noViolations(page);
            await openFromQueue(page, id);
            await statusShown(page, 'Received');
            await act(page, 'Acknowledge');
            await statusShown(page, 'In progress');

            // The tab shows the task as the connector answered it; Ada looks again (selects the tab anew) until then.
            const answered = await waitFor(
              "the shop's task answered in the Systems and tasks tab",
              async () => {
                const panel = await openTab(page, 'Systems and tasks');
                await shown(panel.getByRole('table', { name: 'Tasks' }).or(panel.getByText('No data system has a task for this request (yet).')));
                const row = panel.getByRole('table', { name: 'Tasks' }).getByRole('row').filter({ hasText: 'shop' });
                if (
                  (await row
                    .getByRole('cell')
                    .filter({ hasText: /^Complete/ })
                    .count()) > 0
                )
                  return row;
                await openTab(page, 'Timeline');
                return undefined;
              },
              { timeoutMs: 90_000, intervalMs: 1000 },
            );
            await shown(answered.getByRole('cell', { name: 'Erasure', exact: true }));
            await shown(answered.getByText('Erased: 2 records deleted (contact_details, orders) by example-connector shop-1'));
            await shown(answered.getByText('1 customer(s) and 1 order(s) deleted'));
            await shown(answered.getByText(/^Answered by key:[0-9a-f]{16} on /));
            // Nothing is left for an operator to do to it.
            expect(await answered.getByRole('button').count()).toBe(0);
            await saveScreenshot(page, 'walkthrough-erasure-tasks');
            await noViolations(page);

            // The rows are gone from the shop: Max's customer record and order; the other customers stay.
            expect(await customers(MAX.email)).toBe(0);
            expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".customer_order`)).rows[0].n).toBe(SAMPLE_CUSTOMERS.reduce((n, c) => n + (c === MAX ? 0 : c.orders.length), 0));
            for (const other of SAMPLE_CUSTOMERS.filter((c) => c !== MAX)) expect(await customers(other.email)).toBe(1);

            // With every erasure confirmed, Ada fulfils and closes it.
            await act(page, 'Fulfil');
            await statusShown(page, 'Fulfilled');
            await act(page, 'Close', (form) => form.getByLabel('Reason').selectOption('completed'));
            await statusShown(page, 'Closed');
            await timelineShows(page, id, ['Request acknowledged', 'Task answered', 'Request fulfilled', 'Request closed']);
            await noViolations(page);

            expect({ alan: alan.thirdPartyRequests(), ada: ada.thirdPartyRequests() }).toEqual({ alan: [], ada: [] });
          },
          WALKTHROUGH_WITHIN_MS,
        );
      });
    },
    // The connector's key beside the scenarios' keys.
    { DSAR_API_KEYS: apiKeyListSchema.parse([...Object.values(KEYS), ...Object.values(CONNECTOR_KEYS)]) },
  );
});
