import type { Response } from 'playwright-core';
import { saveScreenshot } from '@dsar/platform/testing';
import { ownPerson, intake } from './e2e/api-client';
import { referenceOf, shown, withConsole } from './e2e/console-kit';

/**
 * The requestor on the request page in Chromium (docs/console.md): the API answers the page the requestor's identities
 * masked, so no answer the browser receives holds them in clear; "Reveal" asks why, shows them in clear, and the
 * reveal is on the timeline; a refused reveal shows the API's problem in the form and records nothing.
 */

jest.setTimeout(180_000);

/** What the API answered the page, from the moment it was opened: each answer's address and body. */
interface Answer {
  url: string;
  body: string;
}

describe('revealing the requestor on the request page in Chromium (embedded mode)', () => {
  withConsole('console-reveal', (kit) => {
    const { api, signedIn, noViolations, getSystem } = kit;

    /** A request of a person of its own whose letter names her, with her phone number and an account id; its id and her identities. */
    async function personsRequest() {
      const person = ownPerson();
      const email = person.requestor.email as string;
      const phone = '+44 7700 900461';
      const account = `shop-${email.slice(5, 13)}`;
      const res = await api().post(
        '/requests',
        intake(
          { requestor: { ...person.requestor, name: 'Harriet Okafor', phone } },
          {
            contact: person.contact,
            rawText: `I am Harriet Okafor (${email}). Please send me a copy of my data.`,
            receivedAt: getSystem().clock.daysAgo(1),
            sourceEvidence: [{ type: 'account_id', reference: account }],
          },
        ),
      );
      expect(res.status).toBe(202);
      return { id: res.body.id as string, email, phone, account };
    }

    it('shows the identities masked, with no answer carrying them in clear; a reveal with a reason shows them and is on the timeline', async () => {
      const { id, email, phone, account } = await personsRequest();
      const opened = await signedIn('ada');
      const { page } = opened;
      const answers: Answer[] = [];
      const reading: Promise<void>[] = [];
      const onResponse = (response: Response) => {
        if (!new URL(response.url()).pathname.startsWith('/api/v1/')) return;
        reading.push(
          response
            .text()
            .then((body) => void answers.push({ url: response.url(), body }))
            .catch(() => undefined),
        );
      };
      page.on('response', onResponse);
      await page.goto(kit.consoleUrl(`requests/${id}`));
      await shown(page.getByRole('heading', { level: 1, name: referenceOf(id) }));
      const requestor = page.getByRole('region', { name: 'Requestor' });
      await shown(requestor.getByText(`${email[0]}***@example.org`));
      await shown(requestor.getByText('H*** O***'));
      await shown(requestor.getByText('+44 7*** ***461'));
      await shown(page.getByRole('tab', { name: 'Timeline' }));
      await shown(page.getByText('Request created'));
      await Promise.all(reading);

      // The detail was read masked, and no answer of the API so far holds an identity in clear.
      const detail = answers.find((a) => new URL(a.url).pathname === `/api/v1/requests/${id}`);
      expect(detail && new URL(detail.url).searchParams.get('requestor')).toBe('masked');
      expect(JSON.parse(detail!.body).requestor).toMatchObject({ name: 'H*** O***', email: `${email[0]}***@example.org`, phone: '+44 7*** ***461' });
      for (const clear of [email, 'Harriet Okafor', phone, account]) {
        expect({ clear, in: answers.filter((a) => a.body.includes(clear)).map((a) => a.url) }).toEqual({ clear, in: [] });
      }
      expect(await requestor.getByText(email, { exact: true }).count()).toBe(0);
      await noViolations(page);

      // Reveal asks why; a blank reason is the API's 400, shown in the form, and nothing is recorded.
      const timelineBefore = (await api().get(`/requests/${id}/timeline`)).body.events.length as number;
      await requestor.getByRole('button', { name: 'Reveal', exact: true }).click();
      const reason = requestor.getByLabel('Why you need them in clear');
      await shown(reason);
      await reason.fill('   ');
      await requestor.getByRole('button', { name: 'Reveal identities' }).click();
      await shown(requestor.getByRole('alert').filter({ hasText: 'SVC-BE-1102' }));
      await shown(requestor.getByRole('alert').getByText('reason'));
      expect((await api().get(`/requests/${id}/timeline`)).body.events.length).toBe(timelineBefore);
      expect(await requestor.getByText(email, { exact: true }).count()).toBe(0);
      await noViolations(page);

      // Cancel closes the form and its problem; Reveal opens it afresh.
      await requestor.getByRole('button', { name: 'Cancel' }).click();
      expect(await requestor.getByRole('alert').count()).toBe(0);
      await requestor.getByRole('button', { name: 'Reveal', exact: true }).click();
      await reason.fill('Calling her back about the account she named.');
      await saveScreenshot(page, 'console-request-reveal');
      await requestor.getByRole('button', { name: 'Reveal identities' }).click();
      await shown(requestor.getByText(email, { exact: true }));
      await shown(requestor.getByText('Harriet Okafor', { exact: true }));
      await shown(requestor.getByText(phone, { exact: true }));
      await shown(requestor.getByText(account, { exact: true }));
      await shown(requestor.getByText('Revealed; the reveal is recorded on the timeline.'));
      await shown(page.getByRole('tabpanel').getByText('Request requestor revealed'));
      await noViolations(page);

      const events = (await api().get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
      expect(events.filter((e) => e.eventType === 'request_requestor_revealed').map((e) => e.payload)).toEqual([
        expect.objectContaining({ actor: 'jwt:ada', fields: ['name', 'email', 'phone', 'contact', 'account_id'] }),
      ]);

      // Hide masks them again, from the answer the page already holds: no new reveal.
      await requestor.getByRole('button', { name: 'Hide' }).click();
      await shown(requestor.getByText(`${email[0]}***@example.org`));
      expect(await requestor.getByText(email, { exact: true }).count()).toBe(0);
      page.off('response', onResponse);
      // The browser logs the refused call of the blank reason, and nothing else went wrong.
      expect(opened.errors()).toEqual([expect.stringMatching(/status of 400 \(Bad Request\) \(.*\/requestor\/reveal\)$/)]);
    });
  });
});
