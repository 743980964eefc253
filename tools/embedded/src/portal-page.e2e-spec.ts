import { saveScreenshot } from '@dsar/platform/testing';
import { withConsole } from './e2e/console-kit';
import { PortalPage } from './e2e/portal-page';

/**
 * The person's download page in Chromium (docs/delivery.md), before it has a link to open: an address without the
 * link's fragment, or with one cut short or changed, is explained in the browser's language, nothing is sent to the
 * API and nothing is kept, and the fragment does not stay in the address. The page is checked with axe.
 */

jest.setTimeout(180_000);

const LINK_ID = '5b0e6f0c-2f4a-4d8e-9a61-7c3d2b1a0f9e';
const CREDENTIAL = 'Qm9va3NoZWxmLWxhbXAtb3JjaGFyZC1yaXZlci1zdG8';
const ENGLISH = 'This link is incomplete Open the link from our email again. If you copied it, make sure you copied all of it.';
const GERMAN = 'Dieser Link ist unvollständig Öffnen Sie den Link aus unserer E-Mail erneut. Wenn Sie ihn kopiert haben, achten Sie darauf, ihn vollständig zu kopieren.';

describe("the person's download page in Chromium (embedded mode)", () => {
  withConsole('portal-page', (kit) => {
    const pages: PortalPage[] = [];
    const portalUrl = (fragment = '') => `${kit.getSystem().gatewayUrl}/portal/${fragment}`;
    const open = async (fragment: string, options: Parameters<typeof PortalPage.open>[2] = {}) => {
      const portal = await PortalPage.open(kit.browser(), portalUrl(fragment), options);
      pages.push(portal);
      return portal;
    };
    /** What the page asked of the API: nothing, without a whole link. */
    const apiCalls = (portal: PortalPage) => portal.requestUrls().filter((url) => new URL(url).pathname.startsWith('/api/'));

    afterAll(async () => {
      for (const portal of pages) await portal.close().catch(() => undefined);
    });

    it('tells a person who opened it without a link that the link is incomplete, on a phone, in English', async () => {
      const portal = await open('', { viewport: 'phone', locale: 'en-GB' });
      expect(await portal.problemText()).toBe(ENGLISH);
      expect(await portal.language()).toBe('en');
      expect(await portal.page.title()).toBe('Your files');
      // The problem has the focus, so that a screen reader reads it first.
      expect(await portal.page.evaluate('document.activeElement?.className')).toBe('problem');
      await kit.noViolations(portal.page);
      await saveScreenshot(portal.page, 'portal-no-link');
      expect(apiCalls(portal)).toEqual([]);
      expect(portal.opened.thirdPartyRequests()).toEqual([]);
      // A CSP refusal (an inline script or style) would be a console error.
      expect(portal.opened.errors()).toEqual([]);
    });

    it('says the same of a link cut short or changed, keeps none of it and takes it out of the address', async () => {
      for (const fragment of [`#${LINK_ID}`, `#${LINK_ID}.${CREDENTIAL.slice(0, 40)}`, `#${LINK_ID}.${CREDENTIAL}%20`, `#not-a-link.${CREDENTIAL}`]) {
        const portal = await open(fragment);
        expect({ fragment, problem: await portal.problemText() }).toEqual({ fragment, problem: ENGLISH });
        expect({ fragment, url: portal.page.url() }).toEqual({ fragment, url: portalUrl() });
        expect({ fragment, kept: await portal.page.evaluate('sessionStorage.length') }).toEqual({ fragment, kept: 0 });
        expect({ fragment, calls: apiCalls(portal) }).toEqual({ fragment, calls: [] });
        expect(portal.opened.errors()).toEqual([]);
      }
    });

    it('speaks German in a browser set to German, before any link says its language', async () => {
      const portal = await open(`#${LINK_ID}.kurz`, { locale: 'de-DE' });
      expect(await portal.problemText()).toBe(GERMAN);
      expect(await portal.language()).toBe('de');
      expect(await portal.page.title()).toBe('Ihre Dateien');
      expect(await portal.page.getByRole('heading', { level: 1 }).innerText()).toBe('Ihre Dateien');
      await kit.noViolations(portal.page);
    });

    it('is served with its own strict CSP, never cached', async () => {
      const res = await fetch(portalUrl());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const script = /<script type="module" crossorigin src="(\/portal\/assets\/[^"]+\.js)"/.exec(await res.text())?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${kit.getSystem().gatewayUrl}${script}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    });
  });
});
