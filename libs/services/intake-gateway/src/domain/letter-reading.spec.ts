import { type RequestType } from '@dsar/contracts';
import { type LanguageDetector, loadLanguageDetector } from './language/language-detector';
import { readLetter, splitSentences, TRIAGE_CONFIDENCE_THRESHOLD } from './letter-reading';

/**
 * The letter reader on letters written for these tests, one pattern of issue 39
 * at a time: the standard letters that mention more than they ask, the asks
 * that come together, boilerplate, citations, agents, languages, confidence
 * and triage. (The labelled set measures it as a whole: classifier-evaluation/.)
 */

let detector: LanguageDetector;
beforeAll(async () => {
  detector = await loadLanguageDetector();
}, 30_000);

const read = (text: string, subject?: string) => readLetter(text, detector, subject === undefined ? {} : { subject });
const rightsOf = (text: string, subject?: string) => read(text, subject).requestedRights.map((r) => r.type);

describe('every type, in the seven languages', () => {
  it.each<[string, string, RequestType]>([
    ['en', 'Please tell me what personal data you hold about me and send me a copy of it.', 'access'],
    ['en', 'Please delete my account and all the data connected to it.', 'deletion'],
    ['en', 'My address on file is out of date, please update my records to 4 Elm Row.', 'rectification'],
    ['en', 'Please send my data in a machine-readable format so that I can move it to another provider.', 'portability'],
    ['en', 'I ask you to restrict the processing of my data while you check whether it is accurate.', 'restriction'],
    ['en', 'I object to the processing of my personal data for direct marketing.', 'objection'],
    ['en', 'Please do not sell or share my personal information with anyone.', 'opt_out'],
    ['de', 'Ich bitte um Auskunft über die Daten, die Sie über mich gespeichert haben.', 'access'],
    ['de', 'Bitte löschen Sie mein Kundenkonto und alle dazugehörigen Daten.', 'deletion'],
    ['de', 'Meine Anschrift ist falsch gespeichert, bitte berichtigen Sie diese.', 'rectification'],
    ['de', 'Bitte übermitteln Sie meine Daten im Rahmen der Datenübertragbarkeit an meinen neuen Anbieter.', 'portability'],
    ['de', 'Ich beantrage die Einschränkung der Verarbeitung meiner Daten.', 'restriction'],
    ['de', 'Ich widerspreche der Nutzung meiner Daten für Werbezwecke.', 'objection'],
    ['de', 'Verkaufen Sie meine Daten bitte nicht an Dritte.', 'opt_out'],
    ['fr', "Je souhaite exercer mon droit d'accès et recevoir une copie de mes données.", 'access'],
    ['fr', 'Merci de supprimer mon compte et toutes mes données.', 'deletion'],
    ['fr', 'Mon adresse est inexacte, merci de la rectifier.', 'rectification'],
    ['fr', 'Je demande la portabilité de mes données vers un autre fournisseur.', 'portability'],
    ['fr', 'Je demande la limitation du traitement de mes données.', 'restriction'],
    ['fr', "Je m'oppose au traitement de mes données à des fins de prospection.", 'objection'],
    ['fr', 'Merci de ne pas vendre mes données personnelles.', 'opt_out'],
    ['es', 'Solicito ejercer mi derecho de acceso y recibir una copia de mis datos personales.', 'access'],
    ['es', 'Quiero que borren todos mis datos de su sistema.', 'deletion'],
    ['es', 'Mi dirección es incorrecta, por favor corríjanla.', 'rectification'],
    ['es', 'Solicito la portabilidad de mis datos a otro proveedor.', 'portability'],
    ['es', 'Solicito la limitación del tratamiento de mis datos.', 'restriction'],
    ['es', 'Me opongo al tratamiento de mis datos con fines de marketing directo.', 'objection'],
    ['es', 'Por favor, no vendan mis datos personales.', 'opt_out'],
    ['pt', 'Gostaria de ter acesso aos meus dados pessoais e receber uma cópia.', 'access'],
    ['pt', 'Solicito a exclusão da minha conta e de todos os meus dados.', 'deletion'],
    ['pt', 'Meu endereço está errado, solicito a retificação.', 'rectification'],
    ['pt', 'Solicito a portabilidade dos meus dados para outro fornecedor.', 'portability'],
    ['pt', 'Solicito a limitação do tratamento dos meus dados.', 'restriction'],
    ['pt', 'Revogo o meu consentimento e oponho-me ao tratamento dos meus dados.', 'objection'],
    ['pt', 'Peço que não vendam os meus dados.', 'opt_out'],
    ['it', "Chiedo l'accesso ai miei dati personali e una copia degli stessi.", 'access'],
    ['it', 'Vi chiedo la cancellazione di tutti i miei dati.', 'deletion'],
    ['it', 'I miei dati sono inesatti, vi chiedo la rettifica del mio indirizzo.', 'rectification'],
    ['it', 'Chiedo la portabilità dei miei dati verso un altro fornitore.', 'portability'],
    ['it', 'Chiedo la limitazione del trattamento dei miei dati.', 'restriction'],
    ['it', 'Mi oppongo al trattamento dei miei dati per marketing diretto.', 'objection'],
    ['it', 'Vi chiedo di non vendere e di non condividere i miei dati con terzi.', 'opt_out'],
    ['nl', 'Ik dien hierbij een inzageverzoek in op grond van de AVG.', 'access'],
    ['nl', 'Verwijder alstublieft al mijn persoonsgegevens uit uw systemen.', 'deletion'],
    ['nl', 'Mijn adres is onjuist, graag een correctie.', 'rectification'],
    ['nl', 'Ik wil mijn gegevens overdragen aan een andere aanbieder.', 'portability'],
    ['nl', 'Ik verzoek u de verwerking van mijn gegevens te beperken.', 'restriction'],
    ['nl', 'Ik maak bezwaar tegen het gebruik van mijn gegevens voor direct marketing.', 'objection'],
    ['nl', 'Ik wil niet dat u mijn gegevens verkoopt of deelt met derden.', 'opt_out'],
  ])('[%s] %s → %s', (language, text, type) => {
    expect(read(text)).toMatchObject({ requestType: type, language, locale: language, triageReason: null });
  });
});

describe('the standard letters that mention more than they ask', () => {
  it('reads the classic access letter as access alone: transfers, the rights list, profiling and the deadline ask nothing', () => {
    const letter = `Dear Data Protection Officer,

Under Article 15 of the GDPR, please send me a copy of the personal data you process about me, with:
- the purposes of the processing and the categories of data concerned;
- the recipients to whom the data have been disclosed, in particular recipients in third countries, and the appropriate safeguards for any transfer;
- the existence of the right to request rectification or erasure of the data, restriction of processing, or to object to it;
- the right to lodge a complaint with a supervisory authority;
- the existence of automated decision-making, including profiling, and meaningful information about the logic involved.

Please answer within one month, as Article 12(3) requires.

Yours faithfully,
Ottilie Brandmeyer`;
    const reading = read(letter, 'Subject access request');
    expect(reading).toMatchObject({ requestType: 'access', triageReason: null, rule: 'citation.gdpr' });
    expect(reading.requestedRights.map((r) => r.type)).toEqual(['access']);
    expect(reading.requestedRights[0]).toMatchObject({ basis: 'citation' });
    expect(reading.confidence).toBe(1);
  });

  it('does the same in German and in French', () => {
    const de = `Sehr geehrte Damen und Herren,
gemäß Art. 15 DSGVO bitte ich um Auskunft über meine bei Ihnen gespeicherten Daten, die Empfänger, auch in Drittländern, die geeigneten Garantien der Übermittlung, das Bestehen eines Rechts auf Berichtigung, Löschung oder Einschränkung sowie eines Widerspruchsrechts, und das Bestehen einer automatisierten Entscheidungsfindung einschließlich Profiling.`;
    expect(rightsOf(de)).toEqual(['access']);
    const fr = `Madame, Monsieur,
Conformément à l'article 15 du RGPD, je vous demande la communication de mes données, de leurs destinataires, y compris dans des pays tiers, de l'existence du droit de demander la rectification ou l'effacement, et de l'existence d'une prise de décision automatisée, y compris un profilage.`;
    expect(rightsOf(fr)).toEqual(['access']);
  });

  it('does not read a portability ask into a question about transfers to third countries', () => {
    expect(read('Please tell me what data you hold about me and whether you transfer my data to third countries.').requestType).toBe('access');
  });

  it('reads a range of articles as no ask', () => {
    expect(read('I know my rights under Articles 15 to 22 GDPR. Please delete my account.')).toMatchObject({ requestType: 'deletion', rule: 'deletion.en' });
  });
});

describe('asks that come together', () => {
  it('keeps erasure primary beside a withdrawal of consent, and lists both', () => {
    const reading = read('I withdraw my consent to the processing of my data and ask you to erase all of it.');
    expect(reading.requestType).toBe('deletion');
    expect(reading.requestedRights.map((r) => r.type)).toEqual(['deletion', 'objection']);
  });

  it('keeps a cited erasure primary beside a cited withdrawal (Art. 7(3) and Art. 17(1)(b))', () => {
    const reading = read('Under Article 7(3) GDPR I withdraw my consent, and under Article 17(1)(b) GDPR I request the erasure of all data relating to me.');
    expect(reading.requestType).toBe('deletion');
    expect(reading.requestedRights.map((r) => r.type)).toEqual(['deletion', 'objection']);
  });

  it('keeps erasure primary beside an objection, in Spanish', () => {
    expect(read('Me opongo al tratamiento de mis datos y solicito que los borren de todos sus sistemas.').requestType).toBe('deletion');
  });

  it('reads the copy before an erasure as part of the erasure', () => {
    expect(rightsOf('Please send me a copy of my order history first. Then delete my account, please.')).toEqual(['deletion', 'access']);
  });

  it("reads access words in a sentence that asks for another right as that right's object", () => {
    expect(rightsOf('Please erase the personal data you hold about me.')).toEqual(['deletion']);
    expect(rightsOf("Je m'oppose au traitement des données me concernant à des fins de prospection.")).toEqual(['objection']);
  });

  it('reads "do not delete, restrict" as a restriction', () => {
    expect(read("Please don't erase my file, I need it for a court case; I ask you to restrict its processing instead.").requestType).toBe('restriction');
  });

  it('takes the first of a list of cited articles as primary and lists the others', () => {
    const reading = read(`Under Articles 15, 16 and 21 GDPR I request:
1. a copy of my data;
2. the correction of my phone number;
3. that you stop using my data for marketing, to which I object.`);
    expect(reading.requestType).toBe('access');
    expect(reading.requestedRights.map((r) => r.type)).toEqual(expect.arrayContaining(['access', 'rectification', 'objection']));
  });

  it('lets a cited objection win over an erasure only mentioned', () => {
    expect(read('Widerspruch nach Art. 21 DSGVO: ich widerspreche der Auswertung meiner Einkäufe. Eine Löschung beantrage ich nicht.').requestType).toBe('objection');
  });
});

describe('the everyday wording of the issue', () => {
  it('reads "please stop emailing me" as an opt-out', () => {
    expect(read('Please stop emailing me, I get three offers a day.')).toMatchObject({ requestType: 'opt_out', triageReason: null });
  });

  it('reads "my email address is wrong, change it" as a rectification', () => {
    expect(read('My email address is wrong on your side, change it please: it is now kasimir.o@example.org.')).toMatchObject({ requestType: 'rectification' });
  });

  it('reads a plain question as nothing asked: triage, no type guessed', () => {
    expect(read('Hello, I have a question about my invoice from March.')).toMatchObject({
      requestType: null,
      suggestedType: null,
      requestedRights: [],
      confidence: 0,
      triageReason: 'no_rule_matched',
      rule: 'none',
    });
  });

  it('reads the negated ask as none: "don\'t delete, just send me a copy" is access', () => {
    expect(read("Don't delete my account, just send me a copy of my data.").requestType).toBe('access');
  });
});

describe('citations of the law', () => {
  it.each<[string, RequestType, string]>([
    ['Pedido nos termos do art. 18, VI da LGPD: eliminação dos dados tratados com o meu consentimento.', 'deletion', 'citation.lgpd'],
    ['Com base no art. 18, inciso II, da LGPD, solicito o acesso aos meus dados.', 'access', 'citation.lgpd'],
    ['Pursuant to Cal. Civ. Code § 1798.105 I request that you delete my personal information.', 'deletion', 'citation.section'],
    ['Under section 1798.120 I direct you not to sell my information.', 'opt_out', 'citation.section'],
    ['Under Va. Code § 59.1-577(A)(3) I ask you to delete the data you have about me.', 'deletion', 'citation.section'],
    ['Gestützt auf Art. 25 DSG verlange ich Auskunft über meine Daten.', 'access', 'citation.fadp'],
    ['Verzoek op grond van artikel 21 AVG: ik maak bezwaar tegen profilering.', 'objection', 'citation.gdpr'],
    ["Richiesta ai sensi dell'articolo 18 del GDPR: limitazione del trattamento.", 'restriction', 'citation.gdpr'],
  ])('%s → %s', (text, type, rule) => {
    const reading = read(text);
    expect(reading).toMatchObject({ requestType: type, rule });
    expect(reading.requestedRights[0]).toMatchObject({ type, basis: 'citation' });
  });

  it('reads a bare article number in the GDPR numbering, weighing less than one with its law', () => {
    const bare = read('Request under Art. 17: remove everything.');
    const named = read('Request under Art. 17 GDPR: remove everything.');
    expect(bare.requestType).toBe('deletion');
    expect(named.confidence).toBeGreaterThanOrEqual(bare.confidence);
  });

  it('reads an article that grants no right (a deadline, information duties) as no evidence', () => {
    expect(read('You must answer within a month, Article 12(3) GDPR.').triageReason).toBe('no_rule_matched');
  });
});

describe('agents', () => {
  it.each([
    ['en', 'I am writing on behalf of my father, who cannot use email. Please delete his account.'],
    ['en', 'As authorised agent of the consumer named below (signed permission attached), I request deletion of her personal information.'],
    ['en', 'I hold a lasting power of attorney for Mr Ferris Oduya. Please send me a copy of the data you hold on him.'],
    ['de', 'Im Auftrag meiner Mandantin, Frau Ilse Vorhagen, verlange ich Auskunft nach Art. 15 DSGVO. Die Vollmacht liegt bei.'],
    ['fr', 'Je vous écris au nom de ma mère, qui m’a donné procuration : merci de supprimer son compte.'],
    ['nl', 'Namens mijn cliënt verzoek ik u al zijn persoonsgegevens te verwijderen. De volmacht is bijgevoegd.'],
  ])('[%s] %s', (_language, text) => {
    expect(read(text).requestorType).toBe('authorized_agent');
  });

  it('leaves a letter in the first person to the subject', () => {
    expect(read('Please delete my account and everything attached to it.').requestorType).toBe('subject');
  });
});

describe('languages', () => {
  it.each([
    ['pl', 'Proszę o usunięcie wszystkich moich danych osobowych z Państwa systemów.'],
    ['sv', 'Jag begär härmed att ni raderar alla personuppgifter ni har om mig.'],
    ['cs', 'Žádám o výmaz všech mých osobních údajů podle článku 17 GDPR.'],
  ])('sends a letter in a language it does not read (%s) to triage, with no type guessed, whatever it cites', (language, text) => {
    expect(read(text)).toMatchObject({
      requestType: null,
      suggestedType: null,
      requestedRights: [],
      triageReason: 'unsupported_language',
      language,
      locale: null,
      rule: 'none',
    });
  });

  it('still reads an agent in an unread language', () => {
    expect(read('W imieniu mojej matki, na podstawie pełnomocnictwa, proszę o usunięcie jej danych osobowych.').requestorType).toBe('authorized_agent');
  });

  it('reports the language of the letter, not of a shared word', () => {
    expect(read('Quiero eliminar mi cuenta y todos mis datos personales, por favor.')).toMatchObject({ language: 'es', rule: 'deletion.es' });
    expect(read('Eu quero eliminar a minha conta e todos os meus dados pessoais.')).toMatchObject({ language: 'pt', rule: 'deletion.pt' });
  });
});

describe('confidence and triage', () => {
  it('is documented at 0.3', () => {
    expect(TRIAGE_CONFIDENCE_THRESHOLD).toBe(0.3);
  });

  it('is 1 for a cited right alone and two thirds for one right asked in words', () => {
    expect(read('Under Article 17 GDPR I request the erasure of my data.').confidence).toBe(1);
    expect(read('Please delete my account.').confidence).toBe(0.67);
  });

  it('sends two rights only mentioned, alike, to triage, suggesting the first', () => {
    const reading = read('Data portability. Restriction of processing.');
    expect(reading).toMatchObject({ requestType: null, suggestedType: 'portability', triageReason: 'low_confidence', confidence: 0.17 });
    expect(reading.confidence).toBeLessThan(TRIAGE_CONFIDENCE_THRESHOLD);
  });

  it('takes the earlier of two rights asked equally strongly, at a third', () => {
    const reading = read('Please send me a copy of my data. Please restrict the processing of my data.');
    expect(reading).toMatchObject({ requestType: 'access', confidence: 0.33 });
    expect(reading.requestedRights.map((r) => r.type)).toEqual(['access', 'restriction']);
  });

  it('rounds the confidence to two decimals within 0..1', () => {
    for (const text of ['Please delete my data.', 'I object.', 'Hello there', 'Art. 15 GDPR', 'Please send me my data and delete it, and stop emailing me.']) {
      const { confidence } = read(text);
      expect(confidence).toBeGreaterThanOrEqual(0);
      expect(confidence).toBeLessThanOrEqual(1);
      expect(Math.round(confidence * 100) / 100).toBe(confidence);
    }
  });
});

describe('the phrase reported for a right', () => {
  it('is the sentence that showed it, as written', () => {
    const reading = read('Hello team.\nI have moved house.  Please löschen… no: please DELETE my old account, thanks!');
    expect(reading.requestedRights[0]).toEqual({ type: 'deletion', phrase: 'Please löschen… no: please DELETE my old account, thanks!', basis: 'phrase' });
  });

  it('is at most 160 characters, around the words that showed it', () => {
    const long = `${'I have been a loyal customer for many years and I have always liked your shop, '.repeat(4)}so please delete my account now ${'and everything else that goes with it as well '.repeat(4)}`;
    const [right] = read(long).requestedRights;
    expect(right.phrase.length).toBeLessThanOrEqual(160);
    expect(right.phrase).toContain('delete my account');
  });
});

describe('splitSentences', () => {
  it('cuts at sentence ends, blank lines and list items, not at abbreviations', () => {
    expect(splitSentences('Under Art. 15 Abs. 3 DSGVO, bitte. Danke!\n\nGruß\n- eins\n- zwei')).toEqual(['Under Art. 15 Abs. 3 DSGVO, bitte.', 'Danke!', 'Gruß', '- eins', '- zwei']);
  });

  it('runs in linear time on a long line without a sentence end', () => {
    const start = performance.now();
    splitSentences(`${'a.b '.repeat(50_000)}`);
    readLetter(`${'art. 1 '.repeat(20_000)}`, detector);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('an answer to a decision', () => {
  it.each([
    'Ich bin mit Ihrer Entscheidung nicht einverstanden.',
    "Je ne suis pas d'accord avec votre décision.",
    'No estoy de acuerdo con su decisión.',
    'Não concordo com a vossa decisão.',
    "Non sono d'accordo con la vostra decisione.",
  ])('"%s" objects to no processing', (text) => {
    expect(read(text)).toMatchObject({ requestType: null, requestedRights: [] });
  });

  it('leaves an objection to automated decision-making an objection', () => {
    expect(read('I object to the decision-making by your algorithm about my loan.').requestType).toBe('objection');
  });
});
