import { compileOverrides } from './overrides';
import { renderNotification } from './render';
import type { TemplateContext } from './template-context';

const context: TemplateContext = {
  requestId: '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d',
  reference: 'DSAR-1A2B3C4D',
  dueAt: new Date('2026-03-12T12:00:00Z'),
  refusal: { reason: 'excessive' },
};
const options = { timeZone: 'Europe/Berlin' };

describe('tenant template overrides', () => {
  it('replace the built-in templates part by part', () => {
    const overrides = compileOverrides({ request_refused: { de: { subject: 'Entscheidung zu {{reference}} (fällig {{date dueAt}})' } } });
    const message = renderNotification('request_refused', 'de', context, { ...options, overrides });
    expect(message.subject).toBe('Entscheidung zu DSAR-1A2B3C4D (fällig 12. März 2026)');
    expect(message.text).toContain('Der Antrag ist exzessiv');
    expect(message.html).toContain('<html lang="de">');
  });

  it('fall back to English where the locale has no template of its own', () => {
    const overrides = compileOverrides({ request_fulfilled: { en: { subject: 'Done: {{reference}}' } } });
    // An unsupported language is written in English, and the tenant's English wins there.
    expect(renderNotification('request_fulfilled', 'it', context, { ...options, overrides })).toMatchObject({ locale: 'en', subject: 'Done: DSAR-1A2B3C4D' });
    // A supported language keeps its own built-in text rather than the tenant's English.
    expect(renderNotification('request_fulfilled', 'de', context, { ...options, overrides }).subject).toBe('Ihr Antrag DSAR-1A2B3C4D ist abgeschlossen');
  });

  it('that render blank give way to the built-in part', () => {
    const overrides = compileOverrides({
      request_fulfilled: { en: { subject: '{{message}}', text: '  \n {{recipientName}} \n', html: '<!doctype html><p>{{message}}</p>' } },
    });
    const message = renderNotification('request_fulfilled', 'en', context, { ...options, overrides });
    expect(message.subject).toBe('Your request DSAR-1A2B3C4D has been completed');
    expect(message.text).toContain('We have completed your request DSAR-1A2B3C4D.');
    expect(message.html).toContain('We have completed your request DSAR-1A2B3C4D.');
  });

  it('that fail at render time (never checked) give way to the built-in part', () => {
    const message = renderNotification('request_fulfilled', 'en', context, { ...options, overrides: { request_fulfilled: { en: { text: '{{nosuch reference}}' } } } });
    expect(message.text).toContain('We have completed your request');
  });

  it('do not escape text and subject, and escape HTML', () => {
    const overrides = compileOverrides({ request_fulfilled: { en: { subject: 'R&D {{message}}', text: 'R&D {{message}}', html: '<p>{{message}}</p>' } } });
    const message = renderNotification('request_fulfilled', 'en', { ...context, message: '<b>&</b>' }, { ...options, overrides });
    expect(message.subject).toBe('R&D <b>&</b>');
    expect(message.text).toBe('R&D <b>&</b>');
    expect(message.html).toBe('<p>&lt;b&gt;&amp;&lt;/b&gt;</p>');
  });

  it('can use the helpers, localized', () => {
    const overrides = compileOverrides({ request_refused: { fr: { text: '{{reference}} : {{refusalReason refusal.reason}} ({{requestType}})' } } });
    const message = renderNotification('request_refused', 'fr', { ...context, requestType: 'deletion' }, { ...options, overrides });
    expect(message.text).toBe('DSAR-1A2B3C4D : La demande est excessive, notamment en raison de son caractère répétitif (Effacement des données personnelles)');
  });

  describe('compileOverrides', () => {
    it('accepts nothing at all', () => {
      expect(compileOverrides(undefined)).toEqual({});
      expect(compileOverrides({})).toEqual({});
    });

    it('rejects an unknown kind', () => {
      expect(() => compileOverrides({ request_lost: { en: { subject: 'x' } } })).toThrow(/unknown notification kind "request_lost"/);
    });

    it('rejects an unknown locale, naming the kind', () => {
      expect(() => compileOverrides({ request_refused: { it: { subject: 'x' } } })).toThrow(/unknown locale "it" for request_refused/);
    });

    it('rejects an unknown part or a part that is not a string', () => {
      expect(() => compileOverrides({ request_refused: { de: { body: 'x' } } })).toThrow(/unknown template part "body" in request_refused\/de/);
      expect(() => compileOverrides({ request_refused: { de: { subject: 42 } } })).toThrow(/request_refused\/de\/subject/);
      expect(() => compileOverrides('templates')).toThrow(/invalid notification template overrides/);
    });

    it('rejects a template that does not compile, naming kind, locale and part', () => {
      expect(() => compileOverrides({ request_refused: { de: { text: 'Hallo {{#if recipientName}}' } } })).toThrow(/request_refused\/de\/text does not compile: Parse error/);
    });

    it('rejects an unknown helper and partials, even in a branch that rarely renders', () => {
      expect(() => compileOverrides({ appeal_decided: { es: { html: '{{#if appeal.reopened}}{{fecha dueAt}}{{/if}}' } } })).toThrow(
        /appeal_decided\/es\/html does not compile: unknown helper "fecha"/,
      );
      expect(() => compileOverrides({ appeal_decided: { es: { html: '{{#if x}}{{> footer}}{{/if}}' } } })).toThrow(/partials and decorators are not supported/);
    });

    it('reports every broken template at once', () => {
      expect(() => compileOverrides({ request_refused: { de: { text: '{{#if}}' }, en: { subject: '{{nope x}}' } } })).toThrow(/request_refused\/de\/text.*request_refused\/en\/subject/s);
    });
  });
});
