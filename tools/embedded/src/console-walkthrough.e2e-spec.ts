import { Pool } from 'pg';
import { type Connector, pullFeed, runConnector, silentLogger } from '@dsar/connector-sdk';
import { SAMPLE_CUSTOMERS, setupShop, shopHandler } from '@dsar/example-connector';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { databaseUrl, saveScreenshot, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { intake } from './e2e/api-client';
import { shown, withConsole } from './e2e/console-kit';
import { act, openFromQueue, openTab, statusShown, timelineShows, WALKTHROUGH_WITHIN_MS, workAccessRequestInConsole } from './e2e/console-walkthrough';
import { CONNECTOR_KEYS } from './e2e/data-systems.scenarios';
import { KEYS } from './e2e/gateway-intake.scenarios';

/**
 * Issue [console]'s walkthroughs in Chromium against an embedded system (docs/console.md, "The walkthroughs"): an
 * access request worked entirely in the console by two operators (four eyes) up to its delivery, and an erasure
 * request whose data-system task the example connector answers on a real PostgreSQL shop, settled in the console.
 */

// Starting the system, the issuer and Chromium on a busy machine; each walkthrough has its own, longer bound.
jest.setTimeout(240_000);

describe('the access walkthrough: a request worked entirely in the console by two operators (embedded mode)', () => {
  withConsole('walkthrough-access', (kit) => {
    it(
      'takes an access request from the queue through acknowledgement, verification, upload, four eyes and fulfilment to a prepared delivery',
      async () => {
        const id = await workAccessRequestInConsole(kit);
        // What the pages showed is what the API holds.
        const request = (await kit.api().get(`/requests/${id}`)).body;
        expect(request).toMatchObject({ status: 'fulfilled', requestType: 'access', jurisdiction: 'DE' });
        const manifest = (await kit.api().get(`/requests/${id}/manifest`)).body;
        expect({ state: manifest.validationState, by: manifest.review.by }).toEqual({ state: 'approved', by: 'jwt:grace' });
      },
      WALKTHROUGH_WITHIN_MS,
    );
  });
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
