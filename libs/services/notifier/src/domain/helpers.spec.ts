import Handlebars from 'handlebars';
import { renderTemplate } from './engine';
import type { Locale } from './notification-kinds';

const render = (source: string, context: object, locale: Locale = 'en', timeZone = 'UTC') => renderTemplate(source, 'text', context, { locale, timeZone });

describe('template helpers', () => {
  it('write dates in the locale and the zone, so an instant near midnight lands on the local day', () => {
    const lateEvening = new Date('2026-03-11T23:30:00Z');
    expect(render('{{date d}}', { d: lateEvening }, 'de', 'Europe/Berlin')).toBe('12. März 2026');
    expect(render('{{date d}}', { d: lateEvening }, 'de', 'UTC')).toBe('11. März 2026');
    expect(render('{{date d}}', { d: lateEvening }, 'es', 'Europe/Madrid')).toBe('12 de marzo de 2026');
    expect(render('{{datetime d}}', { d: lateEvening }, 'de', 'Europe/Berlin')).toBe('12. März 2026 um 00:30 MEZ');
    expect(render('{{date d}}', { d: '2026-03-11T23:30:00Z' }, 'en', 'America/New_York')).toBe('March 11, 2026');
  });

  it('turn missing or malformed values into nothing', () => {
    expect(render('[{{date d}}|{{datetime d}}|{{date x}}|{{methods m}}|{{days n}}|{{extensionLength e}}|{{requestType t}}|{{count l}}]', { d: 'soon', m: 'email', n: 'seven' })).toBe('[|||||||0]');
  });

  it('label codes in the locale and show an unknown code as it is', () => {
    expect(render('{{requestType t}}', { t: 'deletion' }, 'fr')).toBe('Effacement des données personnelles');
    expect(render('{{requestType}}', { requestType: 'portability' }, 'es')).toBe('Portabilidad de los datos');
    expect(render('{{requestType t}}', { t: 'limit_sensitive' }, 'de')).toBe('limit_sensitive');
    expect(render('{{appealDecision d}}', { d: 'approve' }, 'de')).toBe('Dem Einspruch wird stattgegeben');
    expect(render('{{refusalReason r}}', { r: 'identity_not_verified' }, 'pt')).toBe('Não conseguimos verificar sua identidade');
  });

  it('join verification methods as alternatives, once each', () => {
    expect(render('{{methods m}}', { m: ['sms', 'email', 'sms'] }, 'fr')).toBe('un code envoyé par SMS ou une confirmation par e-mail');
    expect(render('{{methods m}}', { m: ['knowledge_based', 'existing_auth', 'manual', 'retina'] }, 'en')).toBe(
      'security questions, signing in to your account with us, a check by our team, or retina',
    );
  });

  it('join the kinds of identity a duplicate matched on as all of them, once each', () => {
    expect(render('{{identityKinds k}}', { k: ['email', 'phone', 'email'] }, 'en')).toBe('email address and phone number');
    expect(render('{{identityKinds k}}', { k: ['phone', 'account', 'email'] }, 'de')).toBe('Telefonnummer, Konto-ID und E-Mail-Adresse');
    expect(render('{{identityKinds k}}', { k: 'email' }, 'fr')).toBe('');
  });

  it('count an extension in months where it was given in months', () => {
    expect(render('{{extensionLength e}}', { e: { additionalDays: 61, additionalMonths: 2 } }, 'de')).toBe('2 Monate');
    expect(render('{{extensionLength e}}', { e: { additionalDays: 45, additionalMonths: null } }, 'pt')).toBe('45 dias');
    expect(render('{{extensionLength e}}', { e: { additionalDays: 1, additionalMonths: null } }, 'en')).toBe('1 day');
  });

  it('write a one-time code in groups of four digits, and nothing for what is not digits', () => {
    expect(render('{{oneTimeCode c}}', { c: '40719385' })).toBe('4071 9385');
    expect(render('{{oneTimeCode c}}', { c: '123456' })).toBe('1234 56');
    expect(render('[{{oneTimeCode c}}|{{oneTimeCode n}}|{{oneTimeCode x}}|{{oneTimeCode}}]', { c: '4071 9385', n: 40719385 })).toBe('[|||]');
  });

  it('are registered on their own instance, not on the global Handlebars', () => {
    expect(Handlebars.helpers).not.toHaveProperty('refusalReason');
  });
});
