import { createHash } from 'node:crypto';
import { INTERNAL_API_PREFIX } from '@dsar/contracts';
import { saveScreenshot } from '@dsar/platform/testing';
import { intake } from './e2e/api-client';
import { withConsole } from './e2e/console-kit';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { signedInternalHeaders } from './e2e/internal-identity';
import { PortalPage } from './e2e/portal-page';

/**
 * The person's download page in Chromium against a whole embedded system (docs/delivery.md): a fulfilled request whose
 * delivery was prepared for email, a link issued as the notifier asks for it, and the person opening it on a phone,
 * entering the code, downloading the files; a wrong code, the lock, an expired link. The walkthrough
 * (console-walkthrough.e2e-spec.ts) takes the link and the code from the emails themselves.
 */

jest.setTimeout(240_000);

const DAY = 24 * 3_600_000;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const REPORT = Buffer.from("%PDF-1.7\n% the person's account export\n".padEnd(300_000, 'account line '));
const TICKETS = Buffer.from('id;subject\n1;Parcel late\n2;Refund\n');

describe("the person's download page with a real link (embedded mode)", () => {
  withConsole('portal-download', (kit) => {
    const pages: PortalPage[] = [];
    let requestId: string;

    afterAll(async () => {
      for (const portal of pages) await portal.close().catch(() => undefined);
    });

    async function upload(id: string, bytes: Buffer, filename: string, contentType: string): Promise<void> {
      const res = await fetch(`${kit.getSystem().gatewayUrl}/api/v1/requests/${id}/manifest/artifact/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${KEYS.workspaceA.token}`,
          'content-type': 'application/octet-stream',
          'x-artifact-filename': encodeURIComponent(filename),
          'x-artifact-content-type': contentType,
        },
        body: bytes,
      });
      expect(res.status).toBe(202);
    }

    /** The link and code the notifier would send for the request's delivery event `key`, in `language`. */
    async function issueLink(key: string, language = 'en'): Promise<{ url: string; code: string }> {
      const url = `${kit.getSystem().services.get('fulfilment-delivery')!.url}${INTERNAL_API_PREFIX}/requests/${requestId}/delivery/link`;
      const principal = { id: 'system:notifier', tenantId: KEYS.adminA.tenantId, roles: ['operator'] };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedInternalHeaders(kit.getSystem().internalAuthKey, 'POST', url, principal) },
        body: JSON.stringify({ key, language }),
      });
      expect(res.status).toBe(200);
      const link = (await res.json()) as { linkId: string; credential: string; code: string };
      return { url: `${kit.getSystem().gatewayUrl}/portal/#${link.linkId}.${link.credential}`, code: link.code };
    }

    async function open(url: string, options: Parameters<typeof PortalPage.open>[2] = {}): Promise<PortalPage> {
      const portal = await PortalPage.open(kit.browser(), url, options);
      pages.push(portal);
      return portal;
    }

    const wrongCode = (code: string) => (code === '12345678' ? '87654321' : '12345678');

    beforeAll(async () => {
      // A fulfilled access request: captured and filled by the workspace's operator, approved and fulfilled by the admin (four eyes).
      const operator = kit.api().as(KEYS.workspaceA.token);
      const created = await operator.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: kit.getSystem().clock.daysAgo(1) }));
      expect(created.status).toBe(202);
      requestId = created.body.id as string;
      expect((await operator.post(`/requests/${requestId}/acknowledgements`, {})).status).toBe(202);
      await upload(requestId, REPORT, 'Kontoauszug.pdf', 'application/pdf');
      await upload(requestId, TICKETS, 'tickets.csv', 'text/csv');
      expect((await kit.api().post(`/requests/${requestId}/manifest/validate`, { action: 'approved' })).status).toBe(202);
      expect((await kit.api().post(`/requests/${requestId}/fulfilment`, {})).status).toBe(202);
      expect((await kit.api().post(`/requests/${requestId}/delivery/prepare`, { channel: 'email', securityLevel: 'token' })).status).toBe(202);
    });

    it('opens with the code on a phone, in the request language, and downloads each file whole', async () => {
      const link = await issueLink('delivery-event-1', 'de');
      const portal = await open(link.url, { viewport: 'phone', locale: 'en-GB' });
      await portal.codeField.waitFor({ state: 'visible' });
      expect(await portal.language()).toBe('de');
      // The credential does not stay in the address.
      expect(portal.page.url()).toBe(`${kit.getSystem().gatewayUrl}/portal/`);
      await kit.noViolations(portal.page);
      await portal.enterCode(`${link.code.slice(0, 4)} ${link.code.slice(4)}`);
      expect(await portal.files()).toEqual(['Kontoauszug.pdf', 'tickets.csv']);
      await kit.noViolations(portal.page);
      const report = await portal.download('Kontoauszug.pdf');
      expect({ filename: report.filename, sha256: sha256(report.bytes) }).toEqual({ filename: 'Kontoauszug.pdf', sha256: sha256(REPORT) });
      const tickets = await portal.download('tickets.csv');
      expect({ filename: tickets.filename, sha256: sha256(tickets.bytes) }).toEqual({ filename: 'tickets.csv', sha256: sha256(TICKETS) });
      await saveScreenshot(portal.page, 'portal-downloaded');
      expect(portal.opened.thirdPartyRequests()).toEqual([]);
      // A reload of the tab shows the files again without a new code.
      await portal.page.reload();
      expect(await portal.files()).toEqual(['Kontoauszug.pdf', 'tickets.csv']);
      // The downloads are on the request's delivery log, by the person.
      const logs = (await kit.api().get(`/requests/${requestId}/delivery/logs`)).body.logs as Array<{ eventType: string; attempts: Array<{ actor: string; outcome: string }> }>;
      const delivered = logs.find((g) => g.eventType === 'delivery_artifact_delivered')!.attempts.filter((a) => a.actor === 'subject:download-page');
      expect(delivered.map((a) => a.outcome)).toEqual(['bytes', 'bytes']);
    });

    it('refuses a wrong code with the tries left, and locks the link after five', async () => {
      const link = await issueLink('delivery-event-2');
      const portal = await open(link.url);
      await portal.enterCode(wrongCode(link.code));
      expect(await portal.problemText()).toBe('The code is not right Check the code in the second email and enter it again. You have 4 tries left.');
      await kit.noViolations(portal.page);
      for (let i = 0; i < 4; i++) await portal.enterCode(wrongCode(link.code));
      await portal.page.getByText('This link is locked').waitFor({ state: 'visible' });
      await kit.noViolations(portal.page);
      // Locked: the right code opens nothing, in this tab or another.
      const again = await open(link.url);
      expect(await again.problemText()).toContain('This link is locked');
    });

    it('refuses a link that was opened already in another browser, and one that has expired', async () => {
      const link = await issueLink('delivery-event-3');
      const first = await open(link.url);
      await first.enterCode(link.code);
      expect(await first.files()).toHaveLength(2);
      const second = await open(link.url);
      expect(await second.problemText()).toContain('This link was already used');

      const later = await issueLink('delivery-event-4');
      const clock = kit.getSystem().clock;
      const issuedAt = clock.now().getTime();
      clock.set(new Date(issuedAt + DAY));
      try {
        const expired = await open(later.url);
        expect(await expired.problemText()).toContain('This link has expired');
        await saveScreenshot(expired.page, 'portal-expired');
        await kit.noViolations(expired.page);
      } finally {
        clock.set(new Date(issuedAt));
      }
    });
  });
});
