import { type RequestType } from '@dsar/contracts';
import type { RuleLanguage } from './request-type-rules';

/**
 * What the letter reader (letter-reading.ts) weighs beside the phrases of
 * request-type-rules.ts: citations of the law, the words of asking, legal
 * boilerplate that asks nothing, the words of an authorised agent, and the
 * weights and the threshold that turn them into a primary type and a
 * confidence. Data, so docs/intake.md can list it and a reviewer can change a
 * word without touching the reader. Patterns use the syntax of
 * request-type-rules.ts (normalized text; `*`, `...`, optional `.` and `'`).
 */

type Cues = Readonly<Record<RuleLanguage, readonly string[]>>;

/**
 * Weights of the evidence for a right (docs/intake.md#how-a-letter-is-read).
 * A citation of an article or section that names the law is the strongest
 * evidence, a bare article number less so; a phrase counts twice when its
 * sentence asks (ASK_CUES), and a phrase of the subject line gets a bonus. A
 * right's score is its strongest evidence plus a quarter of the rest, the
 * rest counting at most REST_CAP.
 */
export const WEIGHTS = {
  citation: 4,
  bareCitation: 2.5,
  phrase: 1,
  askedPhrase: 2,
  subjectBonus: 0.5,
  restShare: 0.2,
  restCap: 0.5,
  /** Each later article of a list of citations ("Art. 15, 16 und 21") weighs this much less than the one before. */
  listStep: 0.25,
  /** A phrase of a language other than the letter's (a word several languages share): its weight times this. */
  otherLanguage: 0.5,
} as const;

/** A primary type's score at which the evidence counts as full strength (a named citation, or an asked phrase in the subject and the text). */
export const FULL_STRENGTH = 3;

/**
 * Below this confidence the letter goes to triage (`low_confidence`): the
 * reading suggests a type, an operator confirms or corrects it. Confidence is
 * strength × (0.5 + 0.5 × margin) (letter-reading.ts): a single asked phrase
 * with no rival reads 0.67, a lone mention 0.33, two rights asked alike 0.33
 * (the earlier wins); two rights only mentioned alike (0.17) and a lone mention
 * in another language's words (0.17) go to triage.
 */
export const TRIAGE_CONFIDENCE_THRESHOLD = 0.3;

/**
 * When both are asked, the first stays primary and the second becomes one of
 * the other rights: its score counts this share for the primary choice. A
 * withdrawal of consent or an objection beside an erasure demand is the ground
 * of the erasure (Art. 17(1)(b), (c) GDPR), not the ask; a restriction asked
 * "until the correction has been made" waits on a rectification; a copy asked
 * before an erasure is the erasure's preparation; and an erasure named beside a
 * restriction is what the restriction replaces (Art. 18(1)(b): "do not delete,
 * restrict"); the marketing stopped beside an objection is the objection's
 * effect. The primary must be asked (score ≥ WEIGHTS.askedPhrase) unless
 * `whenPrimary` is `found`: an objection's own words are the law's, mentioned
 * or asked.
 *
 * A cited secondary right is the letter's own legal reading of its ask and
 * keeps its score beside a primary asked only in words, unless `citedShare` is
 * set: an erasure demanded in words beside an objection under Art. 21 (or a
 * withdrawal under Art. 7(3)) is still what the controller is asked to do, the
 * cited article being its ground (Art. 17(1)(b), (c)). A cited objection
 * scores at least 4 and an erasure asked 2, so the share is small enough to
 * put the erasure first (4.5 × 0.4 = 1.8).
 */
export const SECONDARY_TO: readonly { primary: RequestType; secondary: RequestType; share: number; whenPrimary?: 'asked' | 'found'; citedShare?: number }[] = [
  { primary: 'deletion', secondary: 'objection', share: 0.5, citedShare: 0.4 },
  { primary: 'rectification', secondary: 'restriction', share: 0.5 },
  { primary: 'deletion', secondary: 'access', share: 0.6 },
  { primary: 'restriction', secondary: 'deletion', share: 0.5 },
  { primary: 'objection', secondary: 'opt_out', share: 0.5, whenPrimary: 'found' },
];

/**
 * The words of asking: a phrase in a sentence holding one of these is what the
 * letter asks for, not a mention. Imperatives of the request verbs are in the
 * phrase rules themselves ("please delete", "löschen Sie"), so these are the
 * polite and first-person forms. Making use of a right asks for it ("ich mache
 * von meinem Widerspruchsrecht Gebrauch", "hago uso de mi derecho de
 * oposición", "je fais valoir mon droit d'opposition").
 */
export const ASK_CUES: Cues = {
  en: [
    'please',
    'kindly',
    'i request',
    'i hereby request',
    'i am requesting',
    "i'm requesting",
    'i would like',
    "i'd like",
    'i want',
    'i ask',
    'i am asking',
    "i'm asking",
    'asking you',
    'i demand',
    'i wish',
    'i direct you',
    'i need you',
    'i object',
    'i withdraw',
    'i now withdraw',
    'i revoke',
    'i am exercising',
    "i'm exercising",
    'i exercise',
    // "I am writing to object to…": the letter's purpose, said at its start.
    'i am writing to',
    "i'm writing to",
    'i write to',
    'i hereby',
    'can you',
    'could you',
    'would you',
    'request that you',
    'ask you to',
    'ask that you',
    'make sure',
    'on her behalf',
    'on his behalf',
    'on their behalf',
    'get rid of',
    'send me',
    'give me',
    'tell me',
    'let me know',
    'provide me',
    'show me',
    'take me off',
    'fix it',
    'delete my',
    'erase my',
    'remove my',
    'stop sending',
    'stop using',
    'correct my',
    'update my',
  ],
  de: [
    'bitte',
    'ich verlange',
    'ich mochte',
    'ich moechte',
    'ich fordere',
    'ich beantrage',
    'ich bitte',
    'ich ersuche',
    'ich widerspreche',
    'ich widerrufe',
    'hiermit',
    'mache ich ... gebrauch',
    'ich mache von',
    'konnen sie',
    'koennen sie',
    'ich will',
    'fordere ich',
    'verlange ich',
    'beantrage ich',
    'fordere sie auf',
    'loschen sie',
    'loeschen sie',
    'senden sie',
    'schicken sie',
    'streichen sie',
    'entfernen sie',
    'berichtigen sie',
    'korrigieren sie',
    'horen sie',
    'hoeren sie',
    'tragen sie',
    'ubermitteln sie',
    'uebermitteln sie',
    'geben sie mir',
    'teilen sie mir',
    'widerspreche ich',
    'widerrufe ich',
  ],
  fr: [
    'merci de',
    'je vous prie',
    'je vous demande',
    'veuillez',
    'je souhaite',
    'je demande',
    'je veux',
    'je voudrais',
    'pourriez vous',
    'pouvez vous',
    "j'exige",
    "je m'oppose",
    'je retire',
    'par la presente',
    "j'exerce",
    'je fais valoir',
    'je fais usage',
    'supprimez',
    'envoyez',
    'retirez',
    'cessez',
    'arretez',
    'corrigez',
    'rectifiez',
    'effacez',
    'transmettez',
    'communiquez',
    "merci d'",
    'je vous remercie de',
    "je vous remercie d'",
    'je refuse',
  ],
  es: [
    'por favor',
    'les ruego',
    'le ruego',
    'solicito',
    'quiero',
    'pido',
    'les pido',
    'exijo',
    'deseo',
    'pueden',
    'podrian',
    'me opongo',
    'retiro',
    'ejerzo',
    'hago uso de',
    'ejercito',
    'por medio de la presente',
    'borren',
    'eliminen',
    'dejen de',
    'envien',
    'enviennos',
    'manden',
    'corrijan',
    'rectifiquen',
    'supriman',
    'den de baja',
    'quiten',
    'me gustaria',
    'quisiera',
    'quiero que',
    'envienme',
  ],
  pt: [
    'por favor',
    'peco',
    'solicito',
    'quero',
    'gostaria',
    'exijo',
    'desejo',
    'podem',
    'poderiam',
    'me oponho',
    'revogo',
    'exerco',
    'faco uso d*',
    'requeiro',
    'venho por meio',
    'apaguem',
    'excluam',
    'parem de',
    'enviem',
    'mandem',
    'corrijam',
    'tirem',
    'removam',
    'retifiquem',
    'quero que',
    'enviem me',
    'oponho me',
    'manifesto minha oposicao',
    'manifesto a minha oposicao',
  ],
  it: [
    'per favore',
    'vi chiedo',
    'chiedo',
    'vorrei',
    'voglio',
    'vi prego',
    'richiedo',
    'mi oppongo',
    'revoco',
    'esercito',
    'faccio valere',
    'mi avvalgo',
    'con la presente',
    'potete',
    'potreste',
    'vi invito',
    'desidero',
    'chiedo di',
    'cancellate',
    'eliminate',
    'inviatemi',
    'mandatemi',
    'smettete',
    'correggete',
    'rettificate',
    'rimuovete',
    'toglietemi',
    'togliete',
    'comunicatemi',
    'vorrei che',
    'non voglio',
    'telefonatemi',
    'chiamatemi',
  ],
  nl: [
    'graag',
    'ik wil',
    'ik verzoek',
    'verzoek',
    'verzoeke',
    'wilt u',
    'kunt u',
    'ik eis',
    'ik maak bezwaar',
    'ik geef u geen',
    'ik geef geen',
    'ik trek',
    'hierbij',
    'maak gebruik van',
    'maak ik gebruik',
    'stuur',
    'kan ik',
    'kunnen jullie',
    'willen jullie',
    'alsjeblieft',
    'alstublieft',
    'ik vraag',
    'verwijder',
    'stop',
    'corrigeer',
    'wis',
    'haal',
    'ik wil niet',
    'maak ... bezwaar',
  ],
};

/**
 * Legal boilerplate: wording that names rights or data flows without asking
 * for them. The sentence holding a cue is a boilerplate span, and matches of
 * the `suppresses` types inside it count for nothing (`citations` only: only
 * article citations there count for nothing, its phrases stand).
 *
 * - `transfer`: transfers to third countries and their safeguards (what an
 *   access letter asks to be told), not a transfer of one's data elsewhere;
 * - `rights_list`: the list of rights an access letter asks to be told of
 *   (Art. 15(1)(e) GDPR: "the existence of the right to request rectification,
 *   erasure or restriction, or to object"), and the right to complain;
 * - `profiling`: automated decision-making and profiling as a category of
 *   information asked for (Art. 15(1)(h)), not an objection to them;
 * - `deadline`: citations of a time limit (Art. 12(3) GDPR, "within one
 *   month", "within 45 days"), which name the clock, not the ask;
 * - `identity_document`: a copy of a passport or an identity card sent to
 *   prove who one is, not a copy of one's data asked for;
 * - `verification`: why an access is asked ("so that I can check whether it
 *   is correct"), not a correction asked for;
 * - `mailing_list`: "remove me from your mailing list" takes the author off a
 *   list (an opt-out), it erases nothing;
 * - `no_objection`: "I have no objection to…", "ich habe nichts dagegen":
 *   the words of objecting, negated, give leave (an objection's phrases are
 *   not negatable by the general cues, their own wording being negative);
 * - `decision`: "I do not agree with your decision" answers a decision (an
 *   appeal, a complaint about a refusal), it objects to no processing.
 */
export interface BoilerplateRule {
  id: 'transfer' | 'rights_list' | 'profiling' | 'deadline' | 'identity_document' | 'verification' | 'mailing_list' | 'no_objection' | 'decision';
  suppresses: readonly RequestType[];
  citationsOnly: boolean;
  cues: Cues;
}

const ALL_BUT_ACCESS: readonly RequestType[] = ['deletion', 'rectification', 'portability', 'restriction', 'objection', 'opt_out'];

export const BOILERPLATE_RULES: readonly BoilerplateRule[] = [
  {
    id: 'transfer',
    suppresses: ['portability', 'opt_out'],
    citationsOnly: false,
    cues: {
      en: ['third countr*', 'international organi*', 'appropriate safeguards', 'safeguards relied', 'outside the eea', 'outside the uk', 'outside the european'],
      de: ['drittland*', 'drittstaat*', 'internationale organisation*', 'geeignete garantien', 'ausserhalb der eu', 'ausserhalb des ewr'],
      fr: ['pays tiers', 'organisation internationale', 'garanties appropriees', "hors de l'union", "en dehors de l'union"],
      es: ['terceros paises', 'tercer pais', 'organizacion internacional', 'garantias adecuadas', 'fuera de la union', 'fuera del eee'],
      pt: ['paises terceiros', 'pais terceiro', 'transferencia internacional', 'organizacao internacional', 'garantias adequadas', 'fora da uniao'],
      it: ['paesi terzi', 'paese terzo', 'organizzazioni internazionali', 'garanzie adeguate', "al di fuori dell'unione"],
      nl: ['derde landen', 'derde land', 'internationale organisatie*', 'passende waarborgen', 'buiten de eu', 'buiten de eer'],
    },
  },
  {
    id: 'rights_list',
    suppresses: ALL_BUT_ACCESS,
    citationsOnly: false,
    cues: {
      en: ['existence of', 'lodge a complaint', 'right to complain', 'my rights to', 'information about my rights', 'the rights i have'],
      de: ['bestehen eines recht*', 'bestehen des recht*', 'beschwerderecht*', 'beschwerde bei', 'meine rechte auf'],
      fr: ["l'existence du droit", "l'existence d'un droit", "l'existence des droits", 'introduire une reclamation', 'droit de reclamation', 'mes droits de'],
      es: ['la existencia del derecho', 'la existencia de los derechos', 'presentar una reclamacion', 'derecho a reclamar', 'mis derechos de'],
      pt: ['a existencia do direito', 'a existencia dos direitos', 'apresentar reclamacao', 'peticionar', 'meus direitos de'],
      it: ["l'esistenza del diritto", "l'esistenza dei diritti", 'proporre reclamo', 'i miei diritti di'],
      nl: ['het bestaan van het recht', 'het bestaan van de rechten', 'klacht in te dienen', 'klacht indienen', 'mijn rechten op'],
    },
  },
  {
    id: 'profiling',
    suppresses: ['objection', 'restriction'],
    citationsOnly: false,
    cues: {
      en: ['automated decision*', 'logic involved', 'envisaged consequences'],
      de: ['automatisierte* entscheidung*', 'involvierte logik', 'angestrebten auswirkungen'],
      fr: ['decision* automatisee*', 'decision* individuelle* automatisee*', 'logique sous jacente'],
      es: ['decisiones automatizadas', 'decision* individual* automatizada*', 'logica aplicada'],
      pt: ['decisoes automatizadas', 'decis* automatizada*', 'logica subjacente'],
      it: ['decisioni automatizzate', 'processo decisionale automatizzato', 'logica utilizzata'],
      nl: ['geautomatiseerde besluitvorming', 'geautomatiseerde besluit*', 'onderliggende logica'],
    },
  },
  {
    id: 'deadline',
    suppresses: ['access', 'deletion', 'rectification', 'portability', 'restriction', 'objection', 'opt_out'],
    citationsOnly: true,
    cues: {
      en: ['within one month', 'within a month', 'within 30 days', 'within 45 days', 'without undue delay', 'the deadline', 'time limit', 'one month of receipt', 'article 12', 'art. 12'],
      de: ['innerhalb eines monats', 'innerhalb von 30 tagen', 'unverzuglich', 'unverzueglich', 'frist*', 'artikel 12', 'art. 12'],
      fr: ["dans un delai d'un mois", 'dans le delai', 'dans les meilleurs delais', 'delai', 'article 12', 'art. 12'],
      es: ['en el plazo de un mes', 'plazo', 'sin dilacion indebida', 'articulo 12', 'art. 12'],
      pt: ['no prazo', 'prazo', 'sem demora injustificada', 'artigo 12', 'art. 12'],
      it: ['entro un mese', 'entro 30 giorni', 'senza ingiustificato ritardo', 'termine', 'articolo 12', 'art. 12'],
      nl: ['binnen een maand', 'binnen vier weken', 'zonder onredelijke vertraging', 'termijn', 'artikel 12', 'art. 12'],
    },
  },
  {
    id: 'identity_document',
    suppresses: ['access'],
    citationsOnly: false,
    cues: {
      en: ['passport', 'identity card', 'id card', 'driving licence', "driver's license", 'proof of identity', 'proof of address'],
      de: ['personalausweis*', 'ausweis*', 'reisepass*', 'fuhrerschein*', 'fuehrerschein*', 'identitatsnachweis', 'identitaetsnachweis'],
      fr: ["piece d'identite", "carte d'identite", 'passeport', 'permis de conduire', 'justificatif'],
      es: ['dni', 'documento de identidad', 'pasaporte', 'carne de conducir', 'nie'],
      pt: ['documento de identidade', 'passaporte', 'carteira de identidade', 'cartao de cidadao', 'rg', 'cnh'],
      it: ["carta d'identita", 'passaporto', 'patente', 'documento di identita', "documento d'identita"],
      nl: ['paspoort', 'identiteitsbewijs', 'identiteitskaart', 'id kaart', 'rijbewijs'],
    },
  },
  {
    id: 'verification',
    suppresses: ['rectification'],
    citationsOnly: false,
    cues: {
      en: ['check whether', 'check that', 'check if', 'verify whether', 'verify that', 'to see whether', 'to see if'],
      de: ['prufen ob', 'pruefen ob', 'uberprufen ob', 'ueberpruefen ob', 'kontrollieren ob', 'nachprufen', 'prufen kann', 'pruefen kann', 'damit ich ... prufe', 'uberprufen kann'],
      fr: ['verifier si', 'verifier que', 'controler si', "m'assurer que"],
      es: ['comprobar si', 'comprobar que', 'verificar si', 'verificar que'],
      pt: ['verificar se', 'confirmar se', 'conferir se'],
      it: ['verificare se', 'controllare se', 'verificare che'],
      nl: ['controleren of', 'nagaan of', 'na te gaan of', 'te controleren'],
    },
  },
  {
    id: 'mailing_list',
    suppresses: ['deletion'],
    citationsOnly: false,
    cues: {
      en: ['from your mailing list', 'from your marketing list', 'from your ... list', 'from your ... lists', 'from your ... marketing'],
      de: ['aus ihrem ... verteiler', 'aus dem verteiler', 'aus ihrem werbeverteiler', 'aus allen ... verteilern'],
      fr: ['de votre liste', 'de vos listes'],
      es: ['de su lista', 'de sus listas'],
      pt: ['da vossa lista', 'das vossas listas', 'da sua lista', 'das suas listas'],
      it: ['dalla vostra lista', 'dalle vostre liste', 'dalla vostra mailing list', 'dalla vostra newsletter'],
      nl: ['van uw ... lijst', 'van jullie ... lijst', 'van uw mailinglijst'],
    },
  },
  {
    id: 'no_objection',
    suppresses: ['objection'],
    citationsOnly: false,
    cues: {
      en: ['no objection', 'no objections', 'do not object', "don't object"],
      de: ['nichts dagegen', 'keine einwande', 'keine einwaende', 'keinen einwand', 'widerspreche nicht'],
      fr: ['aucune objection', "pas d'objection", "ne m'oppose pas"],
      es: ['ninguna objecion', 'no tengo inconveniente', 'no me opongo'],
      pt: ['nenhuma objecao', 'nao me oponho'],
      it: ['nessuna obiezione', 'non mi oppongo', 'nulla in contrario', 'niente in contrario'],
      nl: ['geen bezwaar', 'niets op tegen'],
    },
  },
  {
    id: 'decision',
    suppresses: ['objection'],
    citationsOnly: false,
    cues: {
      en: ['your decision', 'this decision', 'your refusal', 'your answer', 'your reply'],
      de: ['ihrer entscheidung', 'ihre entscheidung', 'dieser entscheidung', 'ihrer ablehnung', 'ihrer antwort'],
      fr: ['votre decision', 'cette decision', 'votre refus', 'votre reponse'],
      es: ['su decision', 'vuestra decision', 'esta decision', 'su negativa', 'su respuesta'],
      pt: ['vossa decisao', 'sua decisao', 'esta decisao', 'vossa recusa', 'sua recusa', 'vossa resposta', 'sua resposta'],
      it: ['vostra decisione', 'sua decisione', 'questa decisione', 'vostro rifiuto', 'vostra risposta'],
      nl: ['uw besluit', 'uw beslissing', 'dit besluit', 'deze beslissing', 'uw weigering', 'uw antwoord'],
    },
  },
];

/**
 * The letter is written for someone else: an authorised agent, a
 * representative with a power of attorney, a lawyer for a client, a relative
 * "on behalf of". The requestor is then an authorised agent, and authority
 * evidence is asked for.
 */
export const AGENT_CUES: Cues = {
  en: [
    'on behalf of',
    'on her behalf',
    'on his behalf',
    'on their behalf',
    'authorized agent',
    'authorised agent',
    'power of attorney',
    'my client',
    'our client',
    'i represent',
    'we represent',
    'acting for',
    'signed permission',
    'letter of authority',
    'her personal data',
    'his personal data',
    'her data',
    'his data',
    'her account',
    'his account',
    'my mother',
    'my father',
    'my late',
    'deceased',
    'my son',
    'my daughter',
    'guardian',
  ],
  de: [
    'im auftrag',
    'im namen',
    'vollmacht',
    'bevollmacht*',
    'mein* mandant*',
    'unser* mandant*',
    'vertrete ich',
    'ich vertrete',
    'seine daten',
    'seiner daten',
    'sein konto',
    'seines kontos',
    'mein vater',
    'meine mutter',
    'meines vaters',
    'meiner mutter',
    'verstorben*',
    'erbin',
    'erbe',
    'betreuer*',
  ],
  fr: [
    'au nom de',
    'pour le compte de',
    'procuration',
    'mandat',
    'mandataire',
    'mon client',
    'ma cliente',
    'notre client',
    'je represente',
    'ses donnees',
    'son compte',
    'mon pere',
    'ma mere',
    'decede*',
    'heritier*',
    'heritiere*',
    'tuteur',
    'tutrice',
    'curateur',
  ],
  es: [
    'en nombre de',
    'en representacion de',
    'poder notarial',
    'apoderad*',
    'mi cliente',
    'mi representad*',
    'nuestro cliente',
    'represento a',
    'mi padre',
    'mi madre',
    'fallecid*',
    'heredero',
    'heredera',
    'tutor legal',
  ],
  pt: [
    'em nome de',
    'em nome d*',
    'procuracao',
    'procurador*',
    'meu cliente',
    'minha cliente',
    'nosso cliente',
    'represento',
    'dados dela',
    'dados dele',
    'conta dela',
    'conta dele',
    'meu pai',
    'minha mae',
    'falecid*',
    'herdeir*',
    'curador*',
  ],
  it: [
    'per conto di',
    'in nome di',
    'procura',
    'delega',
    'delegato',
    'il mio cliente',
    'la mia cliente',
    'il mio assistito',
    'la mia assistita',
    'rappresento',
    'mio padre',
    'mia madre',
    'defunt*',
    'decedut*',
    'erede',
    'amministratore di sostegno',
    'tutore',
  ],
  nl: [
    'namens',
    'in opdracht van',
    'volmacht',
    'gemachtigd*',
    'mijn client',
    'mijn clienten',
    'onze client',
    'ik vertegenwoordig',
    'haar gegevens',
    'haar account',
    'mijn vader',
    'mijn moeder',
    'overleden',
    'erfgenaam',
    'bewindvoerder',
    'curator',
    'mentor',
  ],
};

/**
 * The laws a letter may cite, by name, and what each article or section asks.
 * A citation (`Art. 17 DSGVO`, `article 15 of the UK GDPR`, `section
 * 1798.105`, `art. 18, VI da LGPD`) is the letter's own legal reading of its
 * ask, and weighs most. `articles` maps an article number to the right it
 * grants; `null` for an article that grants none (information duties,
 * deadlines, complaints). A citation whose number maps to nothing is no
 * evidence. Article numbers without a law named are read in the GDPR's
 * numbering, at WEIGHTS.bareCitation.
 */
export interface LawCitationRule {
  law: string;
  /** Names of the law, in the pattern syntax. */
  names: readonly string[];
  /** Article (or section) number → right; keys with a paragraph or an item (`18.vi`, `7.3`) are looked up first. */
  articles: Readonly<Record<string, RequestType | null>>;
}

const GDPR_ARTICLES: Readonly<Record<string, RequestType | null>> = {
  '7.3': 'objection',
  '12': null,
  '13': null,
  '14': null,
  '15': 'access',
  '16': 'rectification',
  '17': 'deletion',
  '18': 'restriction',
  '19': null,
  '20': 'portability',
  '21': 'objection',
  '22': 'objection',
  '77': null,
  '82': null,
};

export const LAW_CITATION_RULES: readonly LawCitationRule[] = [
  {
    law: 'gdpr',
    names: [
      'gdpr',
      'uk gdpr',
      'general data protection regulation',
      'dsgvo',
      'ds gvo',
      'datenschutzgrundverordnung',
      'datenschutz grundverordnung',
      'rgpd',
      'reglement general sur la protection des donnees',
      'reglamento general de proteccion de datos',
      'regulamento geral sobre a protecao de dados',
      'regolamento generale sulla protezione dei dati',
      'regolamento ue 2016/679',
      '2016/679',
      'avg',
      'algemene verordening gegevensbescherming',
      'rodo',
      'eu regulation',
    ],
    articles: GDPR_ARTICLES,
  },
  {
    law: 'fadp',
    names: ['fadp', 'nfadp', 'revfadp', 'dsg', 'ndsg', 'revdsg', 'datenschutzgesetz', 'lpd', 'nlpd', 'revlpd', 'loi federale sur la protection des donnees'],
    articles: { '8': 'access', '25': 'access', '28': 'portability', '32': 'rectification', '30': null, '31': null },
  },
  {
    law: 'lgpd',
    names: ['lgpd', 'lei geral de protecao de dados', 'lei 13.709', 'lei n. 13.709', 'lei no 13.709'],
    articles: {
      '18': null,
      '18.i': 'access',
      '18.ii': 'access',
      '18.iii': 'rectification',
      '18.iv': 'deletion',
      '18.v': 'portability',
      '18.vi': 'deletion',
      '18.vii': 'access',
      '18.viii': null,
      '18.ix': 'objection',
      '9': 'access',
      '19': null,
    },
  },
];

/**
 * Statute sections cited by number alone (`1798.105`, `59.1-577(A)(3)`):
 * the CCPA/CPRA (Cal. Civ. Code 1798.100 ff.) and the US state laws of the
 * policy packs (Virginia, Colorado, Connecticut, Utah, Texas). The key is the section, then its subsections, lower case,
 * joined by dots (`59.1-577.a.3`); the longest key that a citation starts
 * with decides. A section that lists every right is no evidence by itself.
 */
export const SECTION_CITATIONS: Readonly<Record<string, RequestType | null>> = {
  '1798.100': 'access',
  '1798.105': 'deletion',
  '1798.106': 'rectification',
  '1798.110': 'access',
  '1798.115': 'access',
  '1798.120': 'opt_out',
  '1798.121': 'restriction',
  '1798.130': null,
  '1798.135': 'opt_out',
  // Virginia VCDPA § 59.1-577(A): (1) confirm and access, (2) correct, (3) delete, (4) portable copy, (5) opt out.
  '59.1-577.a.1': 'access',
  '59.1-577.a.2': 'rectification',
  '59.1-577.a.3': 'deletion',
  '59.1-577.a.4': 'portability',
  '59.1-577.a.5': 'opt_out',
  // Colorado CPA C.R.S. 6-1-1306(1): (a) opt out, (b) access, (c) correction, (d) deletion, (e) portability.
  '6-1-1306.1.a': 'opt_out',
  '6-1-1306.1.b': 'access',
  '6-1-1306.1.c': 'rectification',
  '6-1-1306.1.d': 'deletion',
  '6-1-1306.1.e': 'portability',
  // Connecticut CTDPA § 42-518(a): (1) access, (2) correct, (3) delete, (4) portable copy, (5) opt out.
  '42-518.a.1': 'access',
  '42-518.a.2': 'rectification',
  '42-518.a.3': 'deletion',
  '42-518.a.4': 'portability',
  '42-518.a.5': 'opt_out',
  // Utah UCPA § 13-61-201: (1) access, (2) delete, (3) portable copy, (4) opt out.
  '13-61-201.1': 'access',
  '13-61-201.2': 'deletion',
  '13-61-201.3': 'portability',
  '13-61-201.4': 'opt_out',
  // Texas TDPSA § 541.051(b): (1) confirm and access, (2) correct, (3) delete, (4) portable copy, (5) opt out.
  '541.051.b.1': 'access',
  '541.051.b.2': 'rectification',
  '541.051.b.3': 'deletion',
  '541.051.b.4': 'portability',
  '541.051.b.5': 'opt_out',
};

/**
 * Names of data-protection laws beside those of LAW_CITATION_RULES, as letters
 * in languages intake does not read write them (the GDPR's national names and
 * abbreviations, other countries' laws): with LAW_CITATION_RULES' names, the
 * language-independent cue of a request in such a language.
 */
export const OTHER_LAW_NAMES: readonly string[] = [
  'ccpa',
  'cpra',
  'rodo',
  'ogolne rozporzadzenie o ochronie danych',
  'obecne narizeni o ochrane osobnich udaju',
  'dataskyddsforordningen',
  'databeskyttelsesforordningen',
  'personvernforordningen',
  'tietosuoja asetus',
  'kvkk',
  'popia',
  'pipeda',
  'appi',
  'pdpa',
  'dpdp',
  'γκπδ',
];

/**
 * The words of an agent in languages intake does not read (requestorType is
 * set for those letters too): power of attorney, "on behalf of".
 */
export const OTHER_AGENT_CUES: readonly string[] = [
  'pelnomocnik*',
  'pełnomocnik*',
  'pełnomocnictw*',
  'pelnomocnictw*',
  'w imieniu',
  'plna moc',
  'plnou moc',
  'fullmakt',
  'fuldmagt',
  'pa vegne af',
  'pa vegne av',
  'valtakirja*',
  'imputernicire',
  'in numele',
  'meghatalmaz*',
  'vekalet*',
  'πληρεξουσι*',
  'για λογαριασμο',
];
