import { LOCALES, NOTIFICATION_KINDS, OPERATOR_NOTIFICATION_KINDS, OWNER_NOTIFICATION_KINDS, SUBJECT_NOTIFICATION_KINDS } from './notification-kinds';
import { renderNotification } from './render';
import type { TemplateContext } from './template-context';

const requestId = '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';
const reference = 'DSAR-1A2B3C4D';
const minimal: TemplateContext = { requestId, reference };

const full: TemplateContext = {
  requestId,
  reference,
  requestType: 'access',
  jurisdiction: 'DE',
  jurisdictionName: 'Germany',
  recipientName: 'Erika Mustermann',
  receivedAt: new Date('2026-03-02T09:15:00Z'),
  dueAt: new Date('2026-04-01T22:30:00Z'),
  message: 'Please tell us <script>alert(1)</script> which R&D account you mean.',
  refusal: { reason: 'manifestly_unfounded' },
  extension: {
    additionalDays: 61,
    additionalMonths: 2,
    reason: 'The request covers eleven years of records in several systems.',
    previousDueAt: new Date('2026-03-31T23:30:00Z'),
    dueAt: new Date('2026-06-01T22:30:00Z'),
  },
  verification: { methods: ['email', 'document', 'sms'], expiresAt: new Date('2026-03-30T12:00:00Z'), day: 7 },
  delivery: { channel: 'portal', level: 'token', expiresAt: new Date('2026-04-10T12:00:00Z') },
  appeal: { decision: 'partial', dueAt: new Date('2026-05-15T12:00:00Z'), reopened: true },
  deadline: { kind: 'response', thresholdDays: 7, status: 'in_progress' },
  digest: {
    date: new Date('2026-03-12T06:00:00Z'),
    atRisk: [{ reference: 'DSAR-AAAA0001', requestId: 'aaaa0001-0000-4000-8000-000000000000', dueAt: new Date('2026-03-15T12:00:00Z'), status: 'in_progress' }],
    overdue: [{ reference: 'DSAR-BBBB0002', requestId: 'bbbb0002-0000-4000-8000-000000000000', dueAt: new Date('2026-03-10T12:00:00Z'), status: 'awaiting_verification' }],
  },
  parked: { topic: 'dsar.request.v1', eventType: 'dsar.request.created.v1', reason: 'payload does not match the schema', consumer: 'notifier', subject: requestId },
  failure: { kind: 'request_refused', channel: 'email', destination: 'erika@example.com', error: '550 5.1.1 mailbox unavailable' },
  duplicate: {
    of: '9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4',
    ofReference: 'DSAR-9E8D7C6B',
    matchedKinds: ['email', 'account'],
    windowDays: 30,
    sameIdentityRequests: 3,
    markedAt: new Date('2026-03-02T09:16:00Z'),
  },
};

const options = { timeZone: 'Europe/Berlin' };
const LEAKS = /undefined|NaN|Invalid Date|\[object|\bnull\b|\{\{|\}\}/;

describe('renderNotification', () => {
  describe.each(LOCALES)('in %s', (locale) => {
    it.each(NOTIFICATION_KINDS)('renders %s from a full and from a minimal context', (kind) => {
      for (const context of [full, minimal]) {
        const message = renderNotification(kind, locale, context, options);
        expect(message.locale).toBe(locale);
        for (const part of [message.subject, message.text, message.html]) {
          expect(part.trim()).not.toBe('');
          expect(part).not.toMatch(LEAKS);
        }
        expect(message.subject).not.toMatch(/\n/);
        expect(message.text).toContain(reference);
        expect(message.html).toContain(reference);
        expect(message.html).toMatch(new RegExp(`^<!doctype html>\\s*<html lang="${locale}">`));
      }
    });
  });

  it('tells a German requester the new and previous due date as days in their time zone, with the reasons', () => {
    // Both instants are late in the evening UTC: in Berlin they are already the next day.
    const { subject, text, html } = renderNotification('deadline_extended', 'de-DE', full, options);
    expect(subject).toContain('Verlängerung');
    expect(text).toContain('Neue Frist: 2. Juni 2026');
    expect(text).toContain('Bisherige Frist: 1. April 2026');
    expect(text).not.toContain('31. März');
    expect(text).toContain('Verlängerung um: 2 Monate');
    expect(text).toContain('The request covers eleven years of records in several systems.');
    expect(text).toContain('Wie gesetzlich vorgeschrieben');
    expect(text).toContain('spätestens bis zum 2. Juni 2026');
    expect(html).toContain('2. Juni 2026');

    // West of UTC the same instant is still the previous day.
    const west = renderNotification('deadline_extended', 'de', { ...full, extension: { ...full.extension!, dueAt: new Date('2026-06-02T03:00:00Z') } }, { timeZone: 'America/Los_Angeles' });
    expect(west.text).toContain('Neue Frist: 1. Juni 2026');
  });

  it('gives the extension in days where the law counts in days', () => {
    const { text } = renderNotification('deadline_extended', 'en', { ...full, extension: { ...full.extension!, additionalDays: 45, additionalMonths: null } }, options);
    expect(text).toContain('Extended by: 45 days');
  });

  it.each([
    ['en', 'supervisory authority', 'appeal'],
    ['de', 'Datenschutz-Aufsichtsbehörde', 'Einspruch'],
    ['fr', 'autorité de contrôle', 'recours auprès de nous'],
    ['es', 'reclamación', 'apelarla'],
    ['pt', 'reclamação', 'recorrer'],
  ])('tells a refused requester in %s how to appeal and complain, and offers an appeal by reply only where the law gives one', (locale, complaint, appeal) => {
    for (const context of [
      { ...full, refusal: { reason: 'manifestly_unfounded', appealAvailable: true } },
      { ...minimal, refusal: { reason: 'other', appealAvailable: true } },
    ]) {
      const { text, html } = renderNotification('request_refused', locale, context, options);
      expect(text).toContain(complaint);
      expect(text).toContain(appeal);
      expect(html).toContain(complaint);
    }
    for (const context of [{ ...full, refusal: { reason: 'manifestly_unfounded', appealAvailable: false } }, full, minimal]) {
      const { text, html } = renderNotification('request_refused', locale, context, options);
      expect(text).toContain(complaint);
      expect(text).not.toContain(appeal);
      expect(html).not.toContain(appeal);
    }
  });

  it('tells operators of an appeal filed by reply, with its due date, or of a reply to confirm', () => {
    const filed = renderNotification('appeal_by_reply', 'en', { ...minimal, appeal: { dueAt: new Date('2026-05-15T12:00:00Z') } }, options);
    expect(filed.subject).toBe(`[DSAR] Appeal by reply: ${reference}`);
    expect(filed.text).toContain('Appeal to be decided by: May 15, 2026');
    const unconfirmed = renderNotification('appeal_by_reply', 'en', minimal, options);
    expect(unconfirmed.subject).toBe(`[DSAR] Reply to a refusal, to confirm: ${reference}`);
    expect(unconfirmed.text).toContain('No appeal was filed');
    expect(unconfirmed.text).not.toContain('Appeal to be decided by');
  });

  it("shows the refusal reason and the operator's message, localized", () => {
    const { text } = renderNotification('request_refused', 'fr', full, options);
    expect(text).toContain('Motif\u00a0: La demande est manifestement infondée');
    expect(text).toContain('which R&D account you mean');
    const unknown = renderNotification('request_refused', 'de', { ...full, refusal: { reason: 'moon_phase' } }, options);
    expect(unknown.text).toContain('Grund: moon_phase');
  });

  it('escapes what an operator wrote in HTML and leaves plain text alone', () => {
    const { text, html } = renderNotification('clarification_requested', 'en', full, options);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('R&amp;D');
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('R&D');
    expect(text).not.toContain('&amp;');
  });

  it('asks for clarification with the question and says the deadline may pause', () => {
    const { text } = renderNotification('clarification_requested', 'de', full, options);
    expect(text).toContain('Unsere Frage:\nPlease tell us');
    expect(text).toContain('kann die Frist für die Bearbeitung Ihres Antrags ruhen');
  });

  it('lists the verification methods as alternatives and the expiry', () => {
    expect(renderNotification('verification_requested', 'en', full, options).text).toContain(
      'You can do this with a confirmation sent by email, an identity document, or a code sent by text message.',
    );
    expect(renderNotification('verification_reminder', 'de', full, options).text).toContain('Bestätigung per E-Mail, Ausweisdokument oder Code per SMS');
    expect(renderNotification('verification_requested', 'de', full, options).text).toMatch(/bis zum 30\. März 2026 um 14:00 MESZ/);
  });

  it('acknowledges with reference, received and due dates and the message', () => {
    const { text } = renderNotification('request_acknowledged', 'es', full, options);
    expect(text).toContain('Referencia: DSAR-1A2B3C4D');
    expect(text).toContain('Recibida el: 2 de marzo de 2026');
    expect(text).toContain('Respuesta a más tardar el: 2 de abril de 2026');
    expect(text).toContain('Please tell us');
  });

  it('explains how prepared data is delivered: channel, one-time code, link validity', () => {
    const { text } = renderNotification('delivery_prepared', 'en', full, options);
    expect(text).toContain('You will receive it through our secure portal.');
    expect(text).toContain('one-time code');
    expect(text).toMatch(/valid until April 10, 2026/);
    const standard = renderNotification('delivery_prepared', 'en', { ...full, delivery: { channel: 'secure_remote_access', level: 'standard' } }, options);
    expect(standard.text).toContain('You will receive it through secure remote access.');
    expect(standard.text).not.toContain('one-time code');
    expect(standard.text).toContain('valid for a limited time only');
  });

  describe('a delivery by email', () => {
    const link = 'https://dsar.example.org/portal/#2f3e4d5c-6b7a-4980-a1b2-c3d4e5f60718.tR7vQ2mX9kLp4sWn8bYc1dFg6hJz0aE5uIo3eRtY-_k';
    const expiresAt = new Date('2026-04-10T12:00:00Z');
    const withLink: TemplateContext = { ...full, delivery: { channel: 'email', level: 'token', expiresAt, link } };
    const withCode: TemplateContext = { ...full, delivery: { channel: 'email', level: 'token', expiresAt, code: '40719385' } };
    // The day of the expiry in each language (Europe/Berlin): the link's and the code's messages both give it.
    const EXPIRY: Record<(typeof LOCALES)[number], string> = { en: 'April 10, 2026', de: '10. April 2026', fr: '10 avril 2026', es: '10 de abril de 2026', pt: '10 de abril de 2026' };
    // "Once, in one browser … a one-time code in a separate email" in each language.
    const TERMS: Record<(typeof LOCALES)[number], RegExp> = {
      en: /opened only once, in one browser:.*one-time code, which we are sending you in a separate email/,
      de: /nur einmal und nur in einem Browser öffnen:.*Einmalcode, den wir Ihnen in einer separaten E-Mail senden/,
      fr: /ouvert qu'une seule fois, dans un seul navigateur.*code à usage unique, que nous vous envoyons dans un e-mail séparé/,
      es: /abrirse una vez y en un único navegador:.*código de un solo uso, que le enviamos en un correo electrónico aparte/,
      pt: /aberto uma vez e em um único navegador:.*código de uso único, que enviamos em um e-mail separado/,
    };

    it.each(LOCALES)('in %s, the link with its expiry, once only, in one browser, the code coming apart; never a code', (locale) => {
      const { subject, text, html } = renderNotification('delivery_prepared', locale, withLink, options);
      // On a line of its own, whole: a mail client makes it a link.
      expect(text).toContain(`\n\n${link}\n\n`);
      expect(html).toContain(`<a href="${link}">${link}</a>`);
      expect(text).toContain(EXPIRY[locale]);
      expect(text).toMatch(TERMS[locale]);
      expect(html).toMatch(TERMS[locale]);
      for (const part of [subject, text, html]) {
        expect(part).not.toMatch(/4071|9385/);
        expect(part).not.toMatch(LEAKS);
      }
    });

    it.each(LOCALES)('in %s, the code in groups of four and its expiry; never the link', (locale) => {
      const { subject, text, html } = renderNotification('delivery_code', locale, withCode, options);
      expect(text).toContain('\n\n4071 9385\n\n');
      expect(html).toMatch(/<p style="[^"]*monospace[^"]*">4071 9385<\/p>/);
      expect(text).toContain(EXPIRY[locale]);
      expect(subject).not.toContain('4071');
      for (const part of [subject, text, html]) {
        expect(part).not.toContain('portal');
        expect(part).not.toContain('tR7vQ2mX9kLp4sWn8bYc1dFg6hJz0aE5uIo3eRtY-_k');
        expect(part).not.toMatch(LEAKS);
      }
    });

    it('says the code is never asked for by phone, and whom to tell when the data was not asked for', () => {
      const { text } = renderNotification('delivery_code', 'en', withCode, options);
      expect(text).toContain('Never share this code with anyone, not even with us. We will never ask you for it, by phone, by email or in any other way.');
      expect(text).toContain('If you did not ask for your data, do not use the code and let us know at once');
      expect(renderNotification('delivery_code', 'de', withCode, options).text).toContain('weder am Telefon noch per E-Mail');
    });

    it('writes both messages without a link or code to hand (a template checked alone) without an empty line where they go', () => {
      const bare: TemplateContext = { ...minimal, delivery: { channel: 'email', level: 'token' } };
      expect(renderNotification('delivery_prepared', 'en', bare, options).text).toContain('We will send you a link to download it.');
      const code = renderNotification('delivery_code', 'en', bare, options);
      expect(code.text).not.toContain('is:');
      expect(code.html).not.toContain('monospace');
    });
  });

  it('tells the appeal decision, and the right to complain when the request stays closed', () => {
    const reopened = renderNotification('appeal_decided', 'pt', full, options);
    expect(reopened.text).toContain('Decisão: Recurso parcialmente deferido');
    expect(reopened.text).toContain('Reabrimos sua solicitação');
    const denied = renderNotification('appeal_decided', 'pt', { ...full, appeal: { decision: 'deny', reopened: false } }, options);
    expect(denied.text).toContain('Recurso indeferido');
    expect(denied.text).toContain('reclamação');
    expect(denied.text).not.toContain('Reabrimos');
    expect(renderNotification('appeal_received', 'fr', full, options).text).toContain('au plus tard le 15 mai 2026');
  });

  it('lists at-risk and overdue requests in the digest, and says when there are none', () => {
    const { subject, text } = renderNotification('daily_digest', 'en', full, options);
    expect(subject).toBe('[DSAR] Daily digest for March 12, 2026: 1 at risk, 1 overdue');
    // Each with its id beside the reference: the API and the CLI open a request by either.
    expect(text).toContain('Overdue requests:\n- DSAR-BBBB0002 (bbbb0002-0000-4000-8000-000000000000) – due March 10, 2026 (awaiting_verification)');
    expect(text).toContain('Requests at risk:\n- DSAR-AAAA0001 (aaaa0001-0000-4000-8000-000000000000) – due March 15, 2026 (in_progress)');
    expect(text).not.toContain('Nothing is at risk');
    const quiet = renderNotification('daily_digest', 'de', { ...full, digest: { date: full.digest!.date, atRisk: [], overdue: [] } }, options);
    expect(quiet.text).toContain('Es gibt keine gefährdeten oder überfälligen Anträge.');
    expect(quiet.html).not.toContain('<ul');
  });

  it('reports a deadline with zero days left', () => {
    const { text } = renderNotification('deadline_approaching', 'en', { ...full, deadline: { kind: 'acknowledgement', thresholdDays: 0 } }, options);
    expect(text).toContain('Deadline: Acknowledgement deadline');
    expect(text).toContain('Days remaining: 0');
  });

  it('greets by name when there is one, neutrally otherwise', () => {
    expect(renderNotification('request_fulfilled', 'en', full, options).text).toMatch(/^Dear Erika Mustermann,/);
    expect(renderNotification('request_fulfilled', 'en', minimal, options).text).toMatch(/^Hello,/);
    expect(renderNotification('request_fulfilled', 'de', minimal, options).text).toMatch(/^Guten Tag,\n\nwir haben/);
  });

  describe('operator notifications', () => {
    it.each(OPERATOR_NOTIFICATION_KINDS.filter((k) => k !== 'daily_digest'))('%s names the request by its reference and its id, in every language', (kind) => {
      for (const locale of LOCALES) {
        const message = renderNotification(kind, locale, full, options);
        expect({ locale, reference: message.text.includes(reference), id: message.text.includes(requestId), html: message.html.includes(requestId) }).toEqual({
          locale,
          reference: true,
          id: true,
          html: true,
        });
      }
    });

    const personal = { ...full, recipientName: 'Erika Mustermann', message: 'SECRET-NOTE', extension: { ...full.extension!, reason: 'SECRET-REASON' } };

    it.each(OPERATOR_NOTIFICATION_KINDS)('%s carries no name, message or reasons', (kind) => {
      for (const locale of LOCALES) {
        const message = renderNotification(kind, locale, personal, options);
        for (const part of [message.subject, message.text, message.html]) {
          expect(part).not.toContain('Mustermann');
          expect(part).not.toContain('SECRET-');
          expect(part).not.toContain('erika@example.com');
        }
      }
    });

    it("never show a delivery's link or code, even when a tenant template asks for them", () => {
      const secret = { ...full, delivery: { channel: 'email', level: 'token', link: 'https://dsar.example.org/portal/#l.SECRET-CREDENTIAL', code: '40719385' } };
      const message = renderNotification('notification_failed', 'en', secret, {
        ...options,
        overrides: { notification_failed: { en: { text: 'Failed {{reference}} {{delivery.channel}} {{delivery.link}} {{delivery.code}}' } } },
      });
      expect(message.text).toBe('Failed DSAR-1A2B3C4D email');
    });

    it('keeps them out even when a tenant template asks for them', () => {
      const message = renderNotification('request_created', 'en', personal, {
        ...options,
        overrides: { request_created: { en: { text: 'New {{reference}} from {{recipientName}}: {{message}} {{extension.reason}}' } } },
      });
      expect(message.text).toBe('New DSAR-1A2B3C4D from :');
    });

    it('masks the destination of a failed notification', () => {
      const { text } = renderNotification('notification_failed', 'en', full, options);
      expect(text).toContain('Destination: e***@e***.com');
      expect(text).toContain('Notification: request_refused');
    });

    it('tells of a duplicate mark: both references, what matched, the activity in the window, and where to decide', () => {
      const { subject, text, html } = renderNotification('duplicate_marked', 'en', full, options);
      expect(subject).toBe('[DSAR] Marked as a duplicate: DSAR-1A2B3C4D of DSAR-9E8D7C6B');
      expect(text).toContain('Request DSAR-1A2B3C4D was marked on receipt as a duplicate of request DSAR-9E8D7C6B');
      expect(text).toContain('Duplicate of: DSAR-9E8D7C6B (9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4)');
      expect(text).toContain('Matched on: email address and account ID');
      expect(text).toContain('Requests with these identities: 3 in 30 days');
      expect(text).toContain('Marked: March 2, 2026 at 10:16 AM GMT+1');
      expect(text).toContain(`POST /api/v1/requests/${requestId}/duplicate-resolution`);
      expect(html).toContain(`POST /api/v1/requests/${requestId}/duplicate-resolution`);
      expect(html).toContain('DSAR-9E8D7C6B');
    });

    it.each([
      ['en', 'email address and account ID'],
      ['de', 'E-Mail-Adresse und Konto-ID'],
      ['fr', 'adresse e-mail et identifiant de compte'],
      // Spanish writes "e" for "y" before an "i" sound: Intl's list format knows.
      ['es', 'dirección de correo electrónico e identificador de cuenta'],
      ['pt', 'endereço de e-mail e ID da conta'],
    ])('writes a duplicate mark in %s with the references, the matched kinds (%s), the count and the path', (locale, kinds) => {
      const { subject, text, html } = renderNotification('duplicate_marked', locale, full, options);
      expect(subject).toContain('DSAR-9E8D7C6B');
      for (const part of [text, html]) {
        expect(part).toContain(kinds);
        expect(part).toContain(reference);
        expect(part).toContain('DSAR-9E8D7C6B');
        expect(part).toContain('9e8d7c6b-5a49-4382-b1a0-f9e8d7c6b5a4');
        expect(part).toContain(`/api/v1/requests/${requestId}/duplicate-resolution`);
        expect(part).toMatch(/\b3\b/);
        expect(part).toMatch(/\b30\b/);
      }
    });

    it('writes a duplicate mark whose facts are missing without the lines they would fill', () => {
      const { subject, text } = renderNotification('duplicate_marked', 'en', minimal, options);
      expect(subject).toBe(`[DSAR] Marked as a duplicate: ${reference}`);
      expect(text).not.toContain('Duplicate of:');
      expect(text).not.toContain('Matched on:');
      expect(text).not.toContain('Requests with these identities:');
      expect(text).toContain(`POST /api/v1/requests/${requestId}/duplicate-resolution`);
    });

    it('shows only the kinds of identity a duplicate matched on, never a value that reached the facts', () => {
      const leaked = { ...full, duplicate: { ...full.duplicate!, matchedKinds: ['phone', 'erika@example.com', '+49 170 1234567'] } };
      for (const locale of LOCALES) {
        const message = renderNotification('duplicate_marked', locale, leaked, options);
        for (const part of [message.subject, message.text, message.html]) {
          expect(part).not.toContain('erika@');
          expect(part).not.toContain('1234567');
        }
      }
      expect(renderNotification('duplicate_marked', 'de', leaked, options).text).toContain('Übereinstimmung bei: Telefonnummer\n');
    });

    it('shows what was parked', () => {
      const { subject, text } = renderNotification('message_parked', 'en', full, options);
      expect(subject).toBe('[DSAR] Message parked: dsar.request.created.v1 (DSAR-1A2B3C4D)');
      expect(text).toContain('Topic: dsar.request.v1');
      expect(text).toContain('Consumer: notifier');
      expect(text).toContain('Reason: payload does not match the schema');
    });
  });

  it('subject kinds are all requester messages', () => {
    for (const kind of SUBJECT_NOTIFICATION_KINDS) expect(renderNotification(kind, 'en', full, options).text).toContain('Kind regards,');
  });

  it("writes in the jurisdiction's language when none was asked for, English when unknown", () => {
    expect(renderNotification('request_fulfilled', null, { ...minimal, jurisdiction: 'AT' }, options).locale).toBe('de');
    expect(renderNotification('request_fulfilled', 'it', minimal, options)).toMatchObject({ locale: 'en', subject: 'Your request DSAR-1A2B3C4D has been completed' });
  });

  it('derives the reference from the id when none is given', () => {
    expect(renderNotification('request_fulfilled', 'en', { requestId, reference: '' }, options).subject).toContain('DSAR-1A2B3C4D');
  });

  it('refuses an unknown time zone or kind', () => {
    expect(() => renderNotification('request_fulfilled', 'en', minimal, { timeZone: 'Mars/Olympus' })).toThrow('unknown time zone "Mars/Olympus"');
    expect(() => renderNotification('nope' as never, 'en', minimal, options)).toThrow('unknown notification kind "nope"');
  });
});

describe('the notifications of data-system tasks', () => {
  const taskId = '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c';
  const task: TemplateContext = {
    requestId,
    reference,
    recipientName: 'Erika Mustermann',
    message: 'SECRET-NOTE',
    task: {
      id: taskId,
      systemKey: 'crm',
      displayName: 'Customer CRM',
      action: 'erasure',
      mode: 'manual',
      dueAt: new Date('2026-12-05T10:00:00Z'),
      legalDueAt: new Date('2027-01-01T10:00:00Z'),
      timeoutAt: new Date('2026-12-09T10:00:00Z'),
      state: 'queued',
    },
  };

  it('tell the owner which task, system, action and due dates, and the CLI lines that claim and answer it', () => {
    const { subject, text, html } = renderNotification('task_assigned', 'en', task, { timeZone: 'UTC' });
    expect(subject).toBe('[DSAR] New task for Customer CRM: DSAR-1A2B3C4D');
    expect(text).toContain(`Task: ${taskId}`);
    expect(text).toContain('System: Customer CRM (crm)');
    expect(text).toContain('Action: Erasure');
    expect(text).toContain('Due by: December 5, 2026');
    expect(text).toContain('Legal deadline of the request: January 1, 2027');
    expect(text).toContain(`dsar tasks claim ${taskId}`);
    expect(text).toContain(`dsar tasks answer ${taskId}`);
    expect(html).toContain(`dsar tasks claim ${taskId}`);
    expect(text).toContain('as the owner of a data system');
  });

  it('remind the owner of an overdue task, and alert operators with the request by reference and id', () => {
    const overdue = renderNotification('task_overdue', 'de', task, { timeZone: 'Europe/Berlin' });
    expect(overdue.subject).toBe('[DSAR] Aufgabe überfällig für Customer CRM: DSAR-1A2B3C4D');
    expect(overdue.text).toContain('Tätigkeit: Löschung');
    expect(overdue.text).toContain('War fällig am: 5. Dezember 2026');
    expect(overdue.text).toContain(`dsar tasks answer ${taskId}`);
    const escalated = renderNotification('task_escalated', 'en', task, { timeZone: 'UTC' });
    expect(escalated.subject).toBe('[DSAR] Data system overdue: Customer CRM (DSAR-1A2B3C4D)');
    expect(escalated.text).toContain(`Request ID: ${requestId}`);
    expect(escalated.text).toContain(`Task: ${taskId}`);
    expect(escalated.text).toContain('State: queued');
  });

  it.each(['task_assigned', 'task_overdue', 'task_escalated'] as const)('%s shows the task in every language, with no name, words or token', (kind) => {
    for (const locale of LOCALES) {
      const message = renderNotification(kind, locale, task, { timeZone: 'UTC' });
      expect(message.text).toContain(taskId);
      expect(message.html).toContain(taskId);
      for (const part of [message.subject, message.text, message.html]) {
        expect(part).not.toMatch(LEAKS);
        expect(part).not.toContain('Mustermann');
        expect(part).not.toContain('SECRET-');
        expect(part).not.toMatch(/dtt_/);
      }
      expect(message.text).toContain('Customer CRM');
    }
  });

  it('owner kinds are written from the allow-list of operator messages, whatever a tenant template asks for', () => {
    expect(OWNER_NOTIFICATION_KINDS).toEqual(['task_assigned', 'task_overdue']);
    const message = renderNotification('task_assigned', 'en', task, {
      timeZone: 'UTC',
      overrides: { task_assigned: { en: { text: '{{task.id}} for {{recipientName}}: {{message}}' } } },
    });
    expect(message.text).toBe(`${taskId} for :`);
  });
});
