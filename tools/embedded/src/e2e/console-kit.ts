import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { checkAccessibility, freePort, launchBrowser, newPage, type OpenedPage, signInAtIssuer, startTestIssuer, type TestIssuer } from '@dsar/platform/testing';
import { ApiClient, intake, ownPerson } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { type TestSystem, withEmbeddedSystem } from './systems';

/**
 * The set-up of the console's browser tests (docs/console.md): an embedded system whose gateway trusts a real OpenID
 * Connect issuer (oidc-provider, in a process of its own), Debian's Chromium driven by Playwright, and what every such
 * test does: sign in as one of the issuer's accounts, make a request through the API, wait for the page.
 */

export const CONSOLE_AUDIENCE = 'dsar-api';
export const CONSOLE_CLIENT_ID = 'dsar-console';
/** The issuer's accounts: two operators of tenant A (four eyes), an auditor and two admins of tenant A (four eyes), an operator of tenant B. */
export const CONSOLE_ACCOUNTS = {
  ada: { tenantId: 'tenant-a', roles: ['operator'], name: 'Ada' },
  grace: { tenantId: 'tenant-a', roles: ['operator'], name: 'Grace' },
  ian: { tenantId: 'tenant-a', roles: ['auditor'], name: 'Ian' },
  alan: { tenantId: 'tenant-a', roles: ['admin'], name: 'Alan' },
  mary: { tenantId: 'tenant-a', roles: ['admin'], name: 'Mary' },
  eve: { tenantId: 'tenant-b', roles: ['operator'], name: 'Eve' },
};
export type ConsoleLogin = keyof typeof CONSOLE_ACCOUNTS;

/** The reference the console shows for a request id. */
export const referenceOf = (id: string) => `DSAR-${id.slice(0, 8).toUpperCase()}`;
/** How long the page may take to show what it was asked for, on a busy machine. */
export const SHOWN_WITHIN_MS = 30_000;
/** Waits until the (first) element is visible. */
export const shown = (locator: Locator) => locator.first().waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });

export interface ConsoleKit {
  getSystem: () => TestSystem;
  issuer: () => TestIssuer;
  browser: () => Browser;
  /** An admin of tenant A through the API (KEYS.adminA), for making what a test needs. */
  api: () => ApiClient;
  consoleUrl: (path?: string) => string;
  /** A fresh browser context (no session of anyone else), signed in at the issuer as `login`, on `path`. */
  signedIn: (login: ConsoleLogin, path?: string, viewport?: 'desktop' | 'phone') => Promise<OpenedPage>;
  /** A fresh browser context on `path`, not signed in. */
  opened: (path?: string, viewport?: 'desktop' | 'phone') => Promise<OpenedPage>;
  /** A request of a person of its own (no duplicates), whose letter arrived now or at `receivedAt`; its id. */
  newRequest: (receivedAt?: string, overrides?: Record<string, unknown>) => Promise<string>;
  /** Fails with axe's findings when the page has accessibility violations of levels A and AA. */
  noViolations: (page: Page) => Promise<void>;
}

/**
 * Runs `scenarios` against an embedded system with the console's OIDC sign-in (and API-key sign-in) configured, a test
 * issuer and one Chromium, started before them and closed after.
 */
export function withConsole(name: string, scenarios: (kit: ConsoleKit) => void, settings: Record<string, unknown> | (() => Record<string, unknown>) = {}): void {
  let issuer: TestIssuer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  // Filled before the system starts (its beforeAll runs after this one): the issuer's address is known only then.
  // `settings` as a function: read when the system starts, after the test's own beforeAll (an SMTP server's address, say).
  const systemSettings: Record<string, unknown> = { CONSOLE_OIDC_CLIENT_ID: CONSOLE_CLIENT_ID, AUTH_AUDIENCE: CONSOLE_AUDIENCE, CONSOLE_KEY_SIGN_IN: true };
  if (typeof settings !== 'function') Object.assign(systemSettings, settings);

  beforeAll(async () => {
    if (typeof settings === 'function') Object.assign(systemSettings, settings());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/console/`;
    issuer = await startTestIssuer({
      clients: [{ clientId: CONSOLE_CLIENT_ID, redirectUris: [`${base}signed-in`, `${base}renewed`], postLogoutRedirectUris: [base] }],
      audience: CONSOLE_AUDIENCE,
      accounts: CONSOLE_ACCOUNTS,
      // Short enough that the console renews the token while a test runs (it renews a minute before expiry).
      accessTokenTtlSeconds: 75,
    });
    // The issuer names the API by a resource indicator of its own (RFC 8707 takes absolute URIs only); its tokens carry `aud` dsar-api.
    Object.assign(systemSettings, { PORT: port, AUTH_JWKS_URL: issuer.jwksUrl, AUTH_ISSUER: issuer.url, CONSOLE_OIDC_RESOURCE: issuer.resourceIndicator });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await issuer?.close();
  }, 60_000);

  withEmbeddedSystem(
    name,
    (getSystem) => {
      const consoleUrl = (path = '') => `${getSystem().gatewayUrl}/console/${path}`;
      const opened = async (path = '', viewport: 'desktop' | 'phone' = 'desktop') => {
        const page = await newPage(browser, { viewport });
        contexts.push(page.page.context());
        await page.page.goto(consoleUrl(path));
        return page;
      };
      const api = () => new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
      scenarios({
        getSystem,
        issuer: () => issuer,
        browser: () => browser,
        api,
        consoleUrl,
        opened,
        signedIn: async (login, path = '', viewport = 'desktop') => {
          const page = await opened(path, viewport);
          await page.page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await signInAtIssuer(page.page, login);
          await shown(page.page.getByRole('button', { name: 'Sign out' }));
          return page;
        },
        newRequest: async (receivedAt = getSystem().clock.daysAgo(0), overrides = {}) => {
          const person = ownPerson();
          const res = await api().post('/requests', intake({ requestor: person.requestor, ...overrides }, { contact: person.contact, receivedAt }));
          expect(res.status).toBe(202);
          return res.body.id as string;
        },
        noViolations: async (page) => expect(await checkAccessibility(page)).toEqual([]),
      });
    },
    systemSettings,
  );
}
