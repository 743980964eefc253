import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REQUEST_TYPES, type RequestType } from '@dsar/contracts';
import { AUTO_REPLY_CUES, BOUNCE_CUES, BULK_CUES, FIRST_PERSON_CUES, INFORMATIONAL_CUES, LEGAL_CUES, OWN_DATA_CUES, REQUEST_MARKERS, SPAM_CUES } from './message-classifier-rules';
import { compileGuarded, inferRequestType, occursIn, requiredLiteral } from './request-type-inference';
import { REQUEST_TYPE_PRECEDENCE, REQUEST_TYPE_RULES, RULE_LANGUAGES } from './request-type-rules';

/**
 * Requests that arrive without requestType are typed from the requester's own
 * words. These are the sentences an operator would see, in every language the
 * rules cover, and the conflicts the precedence settles.
 */

describe('inferRequestType in English covers every type', () => {
  it.each<[string, RequestType]>([
    ['Under Article 15 GDPR I would like a copy of all personal data you hold about me.', 'access'],
    ['Please tell me what data you have about me.', 'access'],
    ['This is a subject access request (DSAR).', 'access'],
    ['Please delete my account and all associated data.', 'deletion'],
    ['I want to exercise my right to be forgotten.', 'deletion'],
    ['Please erase everything you store on me.', 'deletion'],
    ['My address on file is wrong, please update my records.', 'rectification'],
    ['You have my name misspelled, please correct it.', 'rectification'],
    ['Please send my data in a machine-readable format so I can move it to another provider.', 'portability'],
    ['I want to invoke my right to data portability.', 'portability'],
    ['Please limit the use of my sensitive personal information.', 'restriction'],
    ['I ask you to restrict the processing of my data while you check its accuracy.', 'restriction'],
    ['I object to the processing of my data for direct marketing.', 'objection'],
    ['Please unsubscribe me from all your marketing emails.', 'objection'],
    ['Do not sell or share my personal information.', 'opt_out'],
    ['I want to opt out of the sale of my data.', 'opt_out'],
  ])('%s → %s', (text, expected) => {
    expect(inferRequestType(text)).toEqual({ requestType: expected, rule: `${expected}.en`, language: 'en' });
  });
});

describe('inferRequestType in other languages', () => {
  it.each<[string, string, RequestType]>([
    ['de', 'Ich bitte um Auskunft über meine gespeicherten personenbezogenen Daten gemäß Art. 15 DSGVO.', 'access'],
    ['de', 'Bitte löschen Sie mein Kundenkonto und alle dazugehörigen Daten.', 'deletion'],
    ['de', 'Hiermit mache ich mein Recht auf Vergessenwerden geltend.', 'deletion'],
    ['de', 'Meine Anschrift ist falsch gespeichert, bitte berichtigen Sie diese.', 'rectification'],
    ['de', 'Bitte übermitteln Sie meine Daten im Rahmen der Datenübertragbarkeit an meinen neuen Anbieter.', 'portability'],
    ['de', 'Ich beantrage die Einschränkung der Verarbeitung meiner Daten.', 'restriction'],
    ['de', 'Ich widerspreche der Nutzung meiner Daten für Werbezwecke.', 'objection'],
    ['de', 'Verkaufen Sie meine Daten bitte nicht an Dritte.', 'opt_out'],
    ['fr', "Conformément à l'article 15 du RGPD, je souhaite exercer mon droit d'accès à mes données.", 'access'],
    ['fr', 'Merci de supprimer mon compte et toutes mes données.', 'deletion'],
    ['fr', 'Mon adresse est inexacte, merci de la rectifier.', 'rectification'],
    ['fr', 'Je demande la portabilité de mes données vers un autre fournisseur.', 'portability'],
    ['fr', 'Je demande la limitation du traitement de mes données.', 'restriction'],
    ['fr', "Je m'oppose au traitement de mes données à des fins de prospection commerciale.", 'objection'],
    ['fr', 'Merci de ne pas vendre mes données personnelles.', 'opt_out'],
    ['es', 'Solicito ejercer mi derecho de acceso y recibir una copia de mis datos personales.', 'access'],
    ['es', 'Quiero que borren todos mis datos de su sistema.', 'deletion'],
    ['es', 'Solicito la supresión de mi cuenta.', 'deletion'],
    ['es', 'Mi dirección es incorrecta, por favor corríjanla.', 'rectification'],
    ['es', 'Solicito la portabilidad de mis datos a otro proveedor.', 'portability'],
    ['es', 'Solicito la limitación del tratamiento de mis datos.', 'restriction'],
    ['es', 'Me opongo al tratamiento de mis datos con fines de marketing directo.', 'objection'],
    ['es', 'Por favor, no vendan mis datos personales.', 'opt_out'],
    ['pt', 'Gostaria de ter acesso aos meus dados pessoais e receber uma cópia.', 'access'],
    ['pt', 'Solicito a exclusão da minha conta e de todos os meus dados.', 'deletion'],
    ['pt', 'Quero deletar minha conta.', 'deletion'],
    ['pt', 'Meu endereço está errado, solicito a retificação.', 'rectification'],
    ['pt', 'Solicito a portabilidade dos meus dados para outro fornecedor.', 'portability'],
    ['pt', 'Solicito a limitação do tratamento dos meus dados.', 'restriction'],
    ['pt', 'Não quero receber publicidade, revogo o meu consentimento.', 'objection'],
    ['pt', 'Peço que não vendam os meus dados.', 'opt_out'],
    ['it', "Chiedo l'accesso ai miei dati personali ai sensi dell'articolo 15.", 'access'],
    ['it', 'Vi chiedo la cancellazione di tutti i miei dati.', 'deletion'],
    ['it', 'I miei dati sono inesatti, chiedo la rettifica.', 'rectification'],
    ['it', 'Chiedo la portabilità dei miei dati verso un altro fornitore.', 'portability'],
    ['it', 'Mi oppongo al trattamento dei miei dati per marketing diretto.', 'objection'],
    ['nl', 'Ik dien hierbij een inzageverzoek in op grond van de AVG.', 'access'],
    ['nl', 'Verwijder al mijn persoonsgegevens uit uw systemen.', 'deletion'],
    ['nl', 'Mijn adres is onjuist, graag een correctie.', 'rectification'],
    ['nl', 'Ik wil mijn gegevens overdragen aan een andere aanbieder.', 'portability'],
    ['nl', 'Ik maak bezwaar tegen het gebruik van mijn gegevens voor direct marketing.', 'objection'],
  ])('[%s] %s → %s', (language, text, expected) => {
    expect(inferRequestType(text)).toEqual({ requestType: expected, rule: `${expected}.${language}`, language });
  });
});

describe('the default', () => {
  it('is access, decided by no rule, when nothing matches', () => {
    expect(inferRequestType('Hello, I have a question about my order')).toEqual({ requestType: 'access', rule: 'default', language: null });
  });

  it.each(['', '   ', '\n\t ', '?!', '…'])('covers an empty-ish text (%j)', (text) => {
    expect(inferRequestType(text)).toEqual({ requestType: 'access', rule: 'default', language: null });
  });
});

describe('precedence: the narrower legal ask wins', () => {
  it.each<[string, RequestType, string]>([
    ["I can't access my account, please delete my data.", 'deletion', 'deletion.en'],
    ['Please send me a copy of my data and then delete it.', 'deletion', 'deletion.en'],
    ['Ich möchte wissen, welche Daten Sie haben, und bitte löschen Sie danach alles.', 'deletion', 'deletion.de'],
    ['Envoyez-moi une copie de mes données puis supprimez mon compte.', 'deletion', 'deletion.fr'],
    ['Please correct my address; also remove my old phone number.', 'rectification', 'rectification.en'],
    ['Please export my data to another provider and then delete my account.', 'portability', 'portability.en'],
    ['Do not delete my data, instead restrict the processing until the dispute is settled.', 'restriction', 'restriction.en'],
    ['I object to direct marketing, delete my email address from your lists.', 'objection', 'objection.en'],
    ['Send me a copy of my data and do not sell it.', 'opt_out', 'opt_out.en'],
  ])('%s → %s', (text, requestType, rule) => {
    expect(inferRequestType(text)).toMatchObject({ requestType, rule });
  });

  it('lists every type once, access last', () => {
    expect([...REQUEST_TYPE_PRECEDENCE].sort()).toEqual([...REQUEST_TYPES].sort());
    expect(REQUEST_TYPE_PRECEDENCE.at(-1)).toBe('access');
  });
});

describe('negation', () => {
  it.each<[string, RequestType, string]>([
    ["Don't delete my account, just send me a copy.", 'access', 'access.en'],
    ['Don’t delete my account, just send me a copy.', 'access', 'access.en'],
    ['Please do not delete anything, I only want to know what data you hold.', 'access', 'access.en'],
    ['Bitte keine Löschung, ich möchte nur eine Kopie meiner Daten.', 'access', 'access.de'],
    ['Ne supprimez pas mon compte, envoyez-moi seulement une copie de mes données.', 'access', 'access.fr'],
    ['No borren mi cuenta, solo quiero una copia de mis datos.', 'access', 'access.es'],
    ['Não apaguem a minha conta, só quero uma cópia dos meus dados.', 'access', 'access.pt'],
    // "eliminar" is Spanish and Portuguese alike; the Portuguese cue negates it.
    ['Não quero eliminar a minha conta, só quero uma cópia dos meus dados.', 'access', 'access.pt'],
  ])('cancels the negated ask: %s → %s', (text, requestType, rule) => {
    expect(inferRequestType(text)).toMatchObject({ requestType, rule });
  });

  it.each<[string, RequestType]>([
    ["I can't delete my account myself, please do it for me.", 'deletion'],
    ["Don't wait, delete my data now.", 'deletion'],
    ["I don't want to wait any longer but please delete my data.", 'deletion'],
    // The French relative pronoun "dont" is no English "don't".
    ['Voici les données dont je demande la suppression.', 'deletion'],
    // Opt-out and objection are worded negatively; a cue does not cancel them.
    ['Please do not sell my data.', 'opt_out'],
    ['Ich möchte keine Werbung mehr erhalten.', 'objection'],
  ])('leaves an ask outside the negation standing: %s → %s', (text, requestType) => {
    expect(inferRequestType(text).requestType).toBe(requestType);
  });
});

describe('normalization', () => {
  it.each<[string, RequestType, string]>([
    ['Bitte Loschung meiner Daten.', 'deletion', 'deletion.de'],
    ['Bitte Loeschung meiner Daten.', 'deletion', 'deletion.de'],
    ['Ich bitte um Datenubertragbarkeit.', 'portability', 'portability.de'],
    ['Solicito la rectificacion de mis datos.', 'rectification', 'rectification.es'],
    ['Pedido de exclusao dos meus dados.', 'deletion', 'deletion.pt'],
    ['Je veux une copie de mes donnees.', 'access', 'access.fr'],
    ['PLEASE DELETE MY DATA', 'deletion', 'deletion.en'],
    ['Please\n\n  delete   my\tdata', 'deletion', 'deletion.en'],
    ['I want to opt-out.', 'opt_out', 'opt_out.en'],
  ])('%j → %s', (text, requestType, rule) => {
    expect(inferRequestType(text)).toMatchObject({ requestType, rule });
  });
});

describe('word boundaries', () => {
  it.each<[string, RequestType, string]>([
    ['Your app says my messages are undeletable; which data do you keep about me?', 'access', 'access.en'],
    ['No sarcasm intended, where is my parcel?', 'access', 'default'],
    ['My order number is Art. 150, where is it?', 'access', 'default'],
    ['I cancelled my order yesterday, where is the refund?', 'access', 'default'],
  ])('%s → %s (%s)', (text, requestType, rule) => {
    expect(inferRequestType(text)).toMatchObject({ requestType, rule });
  });
});

describe('the reported language of a phrase several languages share', () => {
  it.each<[string, string, string]>([
    ['Please process the rectification of my address.', 'rectification.en', 'en'],
    ['Je demande la rectification de mes données.', 'rectification.fr', 'fr'],
    ['Quero corrigir o meu endereço.', 'rectification.pt', 'pt'],
    ['Quiero eliminar mi cuenta.', 'deletion.es', 'es'],
    ['Eu quero eliminar os meus dados.', 'deletion.pt', 'pt'],
  ])('%s → %s', (text, rule, language) => {
    expect(inferRequestType(text)).toMatchObject({ rule, language });
  });
});

describe('article references (GDPR numbering)', () => {
  it.each<[string, RequestType, string, string]>([
    ['Request under Art. 15 GDPR', 'access', 'access.en', 'en'],
    ['Article 15', 'access', 'access.en', 'en'],
    ['Art.16', 'rectification', 'rectification.en', 'en'],
    ['Art. 17', 'deletion', 'deletion.en', 'en'],
    ['Art. 18', 'restriction', 'restriction.en', 'en'],
    ['Art. 20', 'portability', 'portability.en', 'en'],
    ['Art 21', 'objection', 'objection.en', 'en'],
    ['Antrag nach Art. 15 DSGVO', 'access', 'access.de', 'de'],
    ['Antrag nach Art. 15 Abs. 3 DS-GVO', 'access', 'access.de', 'de'],
    ['Demande au titre de l’article 17 RGPD', 'deletion', 'deletion.fr', 'fr'],
    ['Solicitud según el artículo 17', 'deletion', 'deletion.es', 'es'],
    ['Pedido nos termos do artigo 20', 'portability', 'portability.pt', 'pt'],
    ["Richiesta ai sensi dell'articolo 18", 'restriction', 'restriction.it', 'it'],
    ['Verzoek op grond van artikel 21 AVG', 'objection', 'objection.nl', 'nl'],
  ])('%s → %s', (text, requestType, rule, language) => {
    expect(inferRequestType(text)).toEqual({ requestType, rule, language });
  });
});

describe('the rule table', () => {
  it('gives every type rules in every language', () => {
    for (const requestType of REQUEST_TYPES) {
      for (const language of RULE_LANGUAGES) {
        expect(REQUEST_TYPE_RULES.filter((r) => r.requestType === requestType && r.language === language).map((r) => r.id)).toEqual([`${requestType}.${language}`]);
      }
    }
  });

  it('writes every pattern in normalized form, so that it can match', () => {
    for (const { patterns } of REQUEST_TYPE_RULES) {
      for (const pattern of patterns) {
        for (const word of pattern.split(' ')) expect(word).toMatch(/^(\.\.\.|\*?[a-z0-9'.]+\*?)$/);
      }
    }
  });

  it('is listed in docs/intake.md, one row per rule with all its patterns', () => {
    const docs = readFileSync(path.resolve(__dirname, '../../../../../docs/intake.md'), 'utf8').split('\n');
    for (const { id, patterns } of REQUEST_TYPE_RULES) {
      const row = docs.find((line) => line.startsWith(`| \`${id}\` |`));
      expect(row).toBeDefined();
      for (const pattern of patterns) expect(row).toContain(`\`${pattern}\``);
    }
  });
});

describe('the literal guard of each pattern', () => {
  const classifierCues = [OWN_DATA_CUES, FIRST_PERSON_CUES, REQUEST_MARKERS, LEGAL_CUES, INFORMATIONAL_CUES, AUTO_REPLY_CUES, BOUNCE_CUES, BULK_CUES, SPAM_CUES];
  const patterns = [...REQUEST_TYPE_RULES.flatMap((r) => r.patterns), ...classifierCues.flatMap((cues) => Object.values(cues).flat())];

  it.each([
    ['do not sell', 'sell'],
    ["droit a l'oubli", 'droit'],
    ["je m'oppose", 'oppose'],
    ['*auskunft*', 'auskunft'],
    ['art. ... dsgvo', 'dsgvo'],
    ['verkauf* ... daten', 'verkauf'],
    ['1798.120', '1798.120'],
  ])('of %p is %p', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  /** A text a pattern describes: each gap one word, each wildcard some letters, each optional dot kept. */
  const instanceOf = (pattern: string): string =>
    pattern
      .split(' ')
      .map((word) => (word === '...' ? 'und' : word.replace(/^\*/, 'ab').replace(/\*$/, 'en')))
      .join(' ');

  it('is never empty and is in every text the pattern matches', () => {
    for (const pattern of patterns) {
      const { regex, literal } = compileGuarded(pattern);
      const text = `vorher ${instanceOf(pattern)} nachher`;
      expect({ pattern, literal: literal.length > 0 }).toEqual({ pattern, literal: true });
      expect({ pattern, matches: occursIn({ regex, literal }, text), contains: text.includes(literal) }).toEqual({ pattern, matches: true, contains: true });
    }
  });

  it('leaves every match of the unguarded expression in place', () => {
    // Texts where the optional parts are left out: the apostrophe, the abbreviation dot.
    for (const pattern of patterns) {
      const { regex, literal } = compileGuarded(pattern);
      const bare = instanceOf(pattern)
        .replace(/'/g, '')
        .replace(/\.(?= |$)/g, '');
      if (bare.search(regex) >= 0) expect({ pattern, contains: bare.includes(literal) }).toEqual({ pattern, contains: true });
    }
  });
});
