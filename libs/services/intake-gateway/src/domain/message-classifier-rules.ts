import type { RuleLanguage } from './request-type-rules';

/**
 * The cues the message classifier (message-classifier.ts) reads, as data, in
 * the pattern syntax of request-type-rules.ts (normalized text: lower case, no
 * diacritics; `*` for further letters, `...` for up to three words of the same
 * clause, a space for any white space or a hyphen). docs/intake.md lists them
 * and explains how they combine; the labelled set in classifier-evaluation/
 * measures them.
 *
 * A message is a request when, in the words its author wrote (quoted replies
 * and forwarded parts left out), a request-type rule matches, not negated, and
 * the author names their own data (OWN_DATA_CUES), a data-protection right or
 * law (LEGAL_CUES), or speaks of themselves and asks (FIRST_PERSON_CUES and
 * REQUEST_MARKERS); or, without a request-type phrase, when the author invokes
 * a right or law, of themselves, asking. And no cue says it was written by a
 * machine or sent in bulk, or offers something (the noise cues), and it is not
 * a notice about rights written to the reader (INFORMATIONAL_CUES) without
 * naming the author's own data.
 */

type Cues = Readonly<Record<RuleLanguage, readonly string[]>>;

/**
 * The author names their own data, account or records: the requests of a data
 * subject are about themselves. A vendor's pitch ("we delete your data
 * automatically") and a newsletter about the GDPR do not.
 */
export const OWN_DATA_CUES: Cues = {
  en: [
    'my ... data',
    'my ... information',
    'my ... details',
    'my ... account',
    'my ... profile',
    'my ... records',
    'my ... record',
    'my ... address',
    'my name',
    'my surname',
    'my date of birth',
    'my browsing',
    'my email',
    'my e mail',
    'my phone number',
    'my ... number',
    'about me',
    'on me',
    'me from',
    'unsubscribe me',
    'opt me out',
    'stop sending me',
  ],
  de: [
    'mein* ... daten',
    'mein* ... datensatz*',
    'mein* ... konto',
    'mein* kundenkonto',
    'mein* ... profil',
    'mein* ... anschrift',
    'mein* ... adresse',
    'mein* ... name',
    'mein* nachname',
    'mein* geburtsdatum',
    'mein* ... nummer',
    'mein* ... e mail adresse',
    'uber mich',
    'ueber mich',
    'zu meiner person',
    'mich betreffen*',
    'mir ... zusenden',
    'mir keine',
  ],
  fr: [
    'mes ... donnees',
    'mes ... informations',
    'mon ... compte',
    'mon ... profil',
    'mon ... adresse',
    'mon nom',
    'ma date de naissance',
    'mon ... numero',
    'me concernant',
    'me concernent',
    'sur moi',
    "m'envoyer",
    'me desinscrire',
    'me desabonner',
  ],
  es: [
    'mis ... datos',
    'mi ... informacion',
    'informacion mia',
    'mi ... cuenta',
    'mi ... perfil',
    'mi ... direccion',
    'mi nombre',
    'mi apellido',
    'mi fecha de nacimiento',
    'mi ... numero',
    'sobre mi',
    'me conciernen',
    'me concierne',
    'me envien',
    'enviarme',
    'dato mio',
    'datos mios',
    'darme de baja',
  ],
  pt: [
    'meus ... dados',
    'minhas ... informacoes',
    'minha ... conta',
    'meu ... cadastro',
    'meu ... perfil',
    'meu ... endereco',
    'meu nome',
    'meu sobrenome',
    'minha data de nascimento',
    'meu ... numero',
    'sobre mim',
    'me dizem respeito',
    'me enviem',
    'me enviar',
    'dado meu',
    'dados meus',
    'me descadastr*',
  ],
  it: ['miei ... dati', 'mio ... account', 'mio ... profilo', 'mio ... indirizzo', 'mio nome', 'mi riguardano', 'su di me'],
  nl: ['mijn ... gegevens', 'mijn ... account', 'mijn ... profiel', 'mijn ... adres', 'mijn naam', 'over mij'],
};

/**
 * The author speaks of themselves: first-person pronouns and possessives (in
 * Spanish and Portuguese, whose verbs carry the person, the usual first-person
 * verbs of asking too). Weaker than OWN_DATA_CUES: it counts only together with
 * a REQUEST_MARKERS cue.
 */
export const FIRST_PERSON_CUES: Cues = {
  en: ['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd"],
  de: ['ich', 'mich', 'mir', 'mein', 'meine', 'meinem', 'meinen', 'meiner', 'meines'],
  fr: ['je', "j'", 'moi', 'me', "m'", 'mon', 'ma', 'mes'],
  es: ['yo', 'me', 'mi', 'mis', 'mio', 'mia', 'mios', 'mias', 'conmigo', 'solicito', 'pido', 'exijo', 'quiero', 'deseo'],
  pt: ['eu', 'me', 'mim', 'meu', 'minha', 'meus', 'minhas', 'comigo', 'solicito', 'peco', 'exijo', 'quero', 'desejo'],
  it: ['io', 'mi', 'mio', 'mia', 'miei', 'mie'],
  nl: ['ik', 'mij', 'me', 'mijn'],
};

/**
 * The author asks: polite and first-person forms of asking. Together with
 * FIRST_PERSON_CUES they stand in for OWN_DATA_CUES ("Please wipe all personal
 * data relating to me"), and with a LEGAL_CUES cue they make a request without
 * a request-type phrase ("Under the GDPR I would like a copy of the CCTV
 * footage showing me": an access request, the default type).
 */
export const REQUEST_MARKERS: Cues = {
  en: ['please', 'kindly', 'i request', 'i would like', "i'd like", 'i want', 'i ask', 'i demand', 'i wish', 'can you', 'could you', 'i need'],
  de: ['bitte', 'ich verlange', 'ich mochte', 'ich moechte', 'ich fordere', 'ich beantrage', 'ich bitte', 'hiermit', 'konnen sie', 'koennen sie', 'ich will'],
  fr: ['merci de', 'je vous prie', 'veuillez', 'je souhaite', 'je demande', 'je veux', 'je voudrais', 'pourriez vous', 'pouvez vous', "j'exige"],
  es: ['por favor', 'les ruego', 'le ruego', 'solicito', 'quiero', 'pido', 'les pido', 'exijo', 'deseo', 'pueden', 'podrian'],
  pt: ['por favor', 'peco', 'solicito', 'quero', 'gostaria', 'exijo', 'desejo', 'podem', 'poderiam'],
  it: ['per favore', 'vi chiedo', 'chiedo', 'vorrei'],
  nl: ['graag', 'ik wil', 'ik verzoek', 'verzoek'],
};

/**
 * The author invokes a data-protection right or names a law: wording of
 * requests (and of notices about them, which INFORMATIONAL_CUES catch).
 */
export const LEGAL_CUES: Cues = {
  en: [
    'gdpr',
    'uk gdpr',
    'ccpa',
    'cpra',
    'data protection act',
    'data protection law',
    'data protection laws',
    'data protection legislation',
    'privacy law',
    'privacy laws',
    'data subject',
    'subject access',
    'dsar',
    'right of access',
    'right to access',
    'right to erasure',
    'right to be forgotten',
    'right to rectification',
    'right to object',
    'right to data portability',
    'right to know',
    'right to delete',
    'right to opt out',
  ],
  de: [
    'dsgvo',
    'ds gvo',
    'bdsg',
    'datenschutzgrundverordnung',
    'datenschutz grundverordnung',
    'auskunftsrecht',
    'recht auf',
    'betroffenenrecht*',
    'betroffene person',
    'datenschutzrecht*',
    'datenschutzgesetz*',
  ],
  fr: [
    'rgpd',
    'cnil',
    'loi informatique et libertes',
    "droit d'acces",
    "droit a l'effacement",
    "droit a l'oubli",
    'droit de rectification',
    "droit d'opposition",
    'droit a la portabilite',
    'personne concernee',
    'loi ... protection des donnees',
    'reglementation ... protection des donnees',
  ],
  es: [
    'rgpd',
    'lopd',
    'lopdgdd',
    'derecho de acceso',
    'derecho de supresion',
    'derecho al olvido',
    'derecho de rectificacion',
    'derecho de oposicion',
    'derecho a la portabilidad',
    'derechos arco',
    'ley ... proteccion de datos',
    'normativa ... proteccion de datos',
  ],
  pt: [
    'lgpd',
    'rgpd',
    'direito de acesso',
    'direito ao esquecimento',
    'direito de retificacao',
    'direito de oposicao',
    'direito a portabilidade',
    'titular dos dados',
    'titular de dados',
    'lei geral de protecao de dados',
    'lei de protecao de dados',
  ],
  it: ['gdpr', 'garante privacy', 'diritto di accesso', "diritto all'oblio"],
  nl: ['avg', 'uavg', 'recht op inzage', 'recht op vergetelheid', 'betrokkene'],
};

/**
 * Notices written to the reader about their rights or a policy change ("you
 * have the right to access and delete your data"): they name rights and data,
 * but no one asks for anything. They count only where the author does not name
 * their own data.
 */
export const INFORMATIONAL_CUES: Cues = {
  en: ['you have the right', 'you have a right', 'your rights', 'we have updated our', 'we updated our', 'our privacy policy has', 'our privacy notice has'],
  de: ['sie haben das recht', 'sie haben jederzeit das recht', 'ihre rechte', 'wir haben unsere datenschutz*', 'unsere datenschutzerklarung wurde'],
  fr: ['vous avez le droit', "vous disposez d'un droit", 'vous disposez du droit', 'vos droits', 'nous avons mis a jour notre'],
  es: ['usted tiene derecho', 'tiene derecho a', 'tienes derecho', 'sus derechos', 'tus derechos', 'hemos actualizado nuestra'],
  pt: ['voce tem o direito', 'voce tem direito', 'seus direitos', 'atualizamos nossa', 'atualizamos a nossa'],
  it: ['hai il diritto', 'ha il diritto', 'i tuoi diritti', 'abbiamo aggiornato la nostra'],
  nl: ['u heeft het recht', 'je hebt het recht', 'uw rechten', 'we hebben ons privacybeleid'],
};

/** An automatic reply: out of office, on leave, away. Read in the subject and the author's text. */
export const AUTO_REPLY_CUES: Cues = {
  en: [
    'out of office',
    'out of the office',
    'automatic reply',
    'auto reply',
    'autoreply',
    'auto response',
    'on annual leave',
    'currently on leave',
    'i am on vacation',
    "i'm on vacation",
    'i am on holiday',
    "i'm on holiday",
    'i am currently away',
    "i'm currently away",
    'limited access to email',
    'limited access to my email',
  ],
  de: [
    'abwesenheitsnotiz',
    'automatische antwort',
    'nicht im buro',
    'nicht im buero',
    'ausser haus',
    'befinde mich im urlaub',
    'bin im urlaub',
    'wieder erreichbar',
    'keinen zugriff auf meine e mails',
  ],
  fr: [
    'absent du bureau',
    'absente du bureau',
    'absence du bureau',
    'reponse automatique',
    "message d'absence",
    'je suis en conges',
    'je suis actuellement en conges',
    'je suis absent',
    'je suis absente',
    'en vacances jusqu',
  ],
  es: ['fuera de la oficina', 'respuesta automatica', 'estoy de vacaciones', 'estare ausente', 'estoy ausente', 'mensaje de ausencia', 'sin acceso al correo'],
  pt: ['fora do escritorio', 'resposta automatica', 'estou de ferias', 'estarei ausente', 'estou ausente', 'mensagem de ausencia', 'sem acesso ao e mail', 'sem acesso ao email'],
  it: ['fuori ufficio', 'risposta automatica', 'sono in ferie'],
  nl: ['afwezigheidsmelding', 'automatisch antwoord', 'niet op kantoor', 'met vakantie'],
};

/** A delivery failure report (a bounce). Read in the subject and the whole text. */
export const BOUNCE_CUES: Cues = {
  en: [
    'undeliverable',
    'undelivered mail',
    'delivery status notification',
    'mail delivery failed',
    'mail delivery failure',
    'delivery failure',
    'delivery has failed',
    'returned mail',
    'failure notice',
    'could not be delivered',
    "couldn't be delivered",
    'this is a permanent error',
    'mail delivery subsystem',
  ],
  de: ['unzustellbar', 'nicht zustellbar', 'konnte nicht zugestellt werden', 'zustellung fehlgeschlagen', 'unzustellbare nachricht'],
  fr: ['non remis', 'echec de la remise', 'echec de remise', 'echec de distribution', "n'a pas pu etre remis", "n'a pas pu etre distribue", 'message non distribue'],
  es: ['no se puede entregar', 'no se pudo entregar', 'no entregado', 'error de entrega', 'fallo en la entrega', 'notificacion de estado de entrega'],
  pt: ['nao entregue', 'falha na entrega', 'nao foi possivel entregar', 'nao pode ser entregue', 'mensagem nao entregue'],
  it: ['non recapitabile', 'mancato recapito', 'impossibile recapitare'],
  nl: ['onbestelbaar', 'niet afgeleverd', 'kon niet worden afgeleverd'],
};

/**
 * Mail sent in bulk: a newsletter's or a shop's footer. A person asking for
 * something does not write these, so they win over request phrases ("Newsletter
 * abbestellen" in a footer is no objection).
 */
export const BULK_CUES: Cues = {
  en: [
    'view this email in your browser',
    'view this e mail in your browser',
    'view in browser',
    'view in your browser',
    'view online',
    'you are receiving this',
    "you're receiving this",
    'you received this email because',
    'you received this e mail because',
    'you received this because',
    'you have received this email because',
    'unsubscribe here',
    'click here to unsubscribe',
    'unsubscribe from this list',
    'manage your preferences',
    'manage preferences',
    'update your preferences',
    'email preferences',
    'all rights reserved',
    'no longer wish to receive these',
  ],
  de: [
    'sie erhalten diese e mail',
    'sie erhalten diese nachricht',
    'sie erhalten diesen newsletter',
    'im browser ansehen',
    'im browser anzeigen',
    'zum abmelden klicken sie hier',
    'hier abmelden',
    'alle rechte vorbehalten',
    'impressum',
  ],
  fr: [
    'vous recevez cet e mail',
    'vous recevez cet email',
    'vous recevez ce message',
    'vous recevez cette newsletter',
    'voir la version en ligne',
    'afficher dans le navigateur',
    'cliquez ici pour vous desinscrire',
    'cliquez ici pour vous desabonner',
    'gerer vos preferences',
    'tous droits reserves',
  ],
  es: [
    'recibes este correo',
    'recibe este correo',
    'has recibido este correo',
    'ha recibido este correo',
    'ver en el navegador',
    'ver version web',
    'haz clic aqui para darte de baja',
    'haga clic aqui para darse de baja',
    'gestionar tus preferencias',
    'para dejar de recibir',
    'todos los derechos reservados',
  ],
  pt: [
    'voce esta recebendo este',
    'voce recebeu este e mail',
    'voce recebeu este email',
    'ver no navegador',
    'visualizar no navegador',
    'clique aqui para se descadastrar',
    'descadastre se aqui',
    'gerenciar preferencias',
    'para deixar de receber',
    'todos os direitos reservados',
  ],
  it: ['ricevi questa email', 'visualizza nel browser', 'tutti i diritti riservati', "annulla l'iscrizione qui"],
  nl: ['je ontvangt deze e mail', 'u ontvangt deze e mail', 'bekijk in je browser', 'alle rechten voorbehouden', 'klik hier om je af te melden'],
};

/** Unsolicited offers and prizes: a vendor selling compliance, a prize to claim. */
export const SPAM_CUES: Cues = {
  en: [
    'you have won',
    "you've won",
    'claim your prize',
    'click here to claim',
    'gift card',
    'book a demo',
    'schedule a demo',
    'request a demo',
    'free trial',
    'our software',
    'our platform',
    'our solution',
    'our services',
    'we help companies',
    'we help businesses',
    'limited time offer',
    'special offer',
    'discount code',
    'investment opportunity',
    'guest post',
    'seo services',
  ],
  de: [
    'sie haben gewonnen',
    'gewinn abzuholen',
    'ihren gewinn',
    'kostenlos testen',
    'demo vereinbaren',
    'unsere software',
    'unserer software',
    'unsere losung',
    'unsere dienstleistung*',
    'sonderangebot',
    'rabattcode',
    'gutscheincode',
  ],
  fr: ['vous avez gagne', 'votre prix', 'essai gratuit', 'demander une demo', 'reservez une demo', 'notre logiciel', 'notre solution', 'nos services', 'offre speciale', 'code promo'],
  es: [
    'ha ganado',
    'has ganado',
    'su premio',
    'tu premio',
    'prueba gratis',
    'prueba gratuita',
    'solicite una demo',
    'solicita una demo',
    'nuestro software',
    'nuestra solucion',
    'nuestros servicios',
    'oferta especial',
    'codigo de descuento',
  ],
  pt: [
    'voce ganhou',
    'seu premio',
    'teste gratis',
    'teste gratuito',
    'agende uma demonstracao',
    'solicite uma demonstracao',
    'nosso software',
    'nossa solucao',
    'nossos servicos',
    'oferta especial',
    'cupom de desconto',
  ],
  it: ['hai vinto', 'prova gratuita', 'il nostro software', 'offerta speciale'],
  nl: ['je hebt gewonnen', 'gratis proefperiode', 'onze software', 'speciale aanbieding'],
};

/**
 * Subject prefixes of replies and forwards (`Re:`, `AW:`, `Fwd:`, `WG:`, `TR:`,
 * `RV:`, `ENC:`, …, repeated or numbered). Such a subject is the quoted
 * message's, not the author's words: the classifier does not read it.
 */
export const REPLY_SUBJECT = /^\s*(?:(?:re|aw|antw|antwort|r|rv|res|sv|vs|fw|fwd|wg|tr|enc|doorst|rif)(?:\[\d+\]|\(\d+\))?\s*:\s*)+/i;

/**
 * Senders that are machines: delivery reports come from the mailer daemon or
 * the postmaster. Matched against the local part of the From address (before
 * the @), lower case. A no-reply sender is no cue: web forms relay people's
 * requests from such addresses.
 */
export const BOUNCE_SENDERS: readonly RegExp[] = [/^mailer-daemon$/, /^postmaster$/, /^mail-daemon$/];

/** One mail header cue: the header, by lower-case name, and what its value must match. */
export interface HeaderCue {
  name: string;
  value: RegExp;
}

/**
 * Mail headers that mark a message as an automatic reply (RFC 3834
 * `Auto-Submitted: auto-replied`, the de-facto `X-Autoreply` family), a
 * delivery report (RFC 3464 `multipart/report`, `X-Failed-Recipients`) or bulk
 * (`Precedence: bulk`). Only where the provider passes headers on (the generic
 * shape may; Resend's event does not). `List-Id` and `List-Unsubscribe` are no
 * cue: a privacy mailbox that is a mailing-list group (Google Groups, say) adds
 * them to every message, requests included. `Auto-Submitted: auto-generated`
 * is weak: web forms send with it, so it counts only for a message that does
 * not read as a request.
 */
export const HEADER_CUES: Readonly<Record<'autoReply' | 'automated' | 'bounce' | 'bulk', readonly HeaderCue[]>> = {
  autoReply: [
    { name: 'auto-submitted', value: /^auto-replied\b/i },
    { name: 'x-autoreply', value: /\S/ },
    { name: 'x-autorespond', value: /\S/ },
    { name: 'precedence', value: /^auto[_-]reply$/i },
  ],
  automated: [{ name: 'auto-submitted', value: /^auto-(?!replied\b)/i }],
  bounce: [
    { name: 'x-failed-recipients', value: /\S/ },
    { name: 'content-type', value: /^multipart\/report\b/i },
  ],
  bulk: [{ name: 'precedence', value: /^(?:bulk|junk)$/i }],
};
