import { type RequestType } from '@dsar/contracts';

/**
 * The rule set that infers a request type from the requester's own words
 * (intakeSource.rawText). It is data, not code, so docs/intake.md can list it
 * and a reviewer can change a phrase without touching the matcher
 * (request-type-inference.ts).
 *
 * Pattern syntax. Patterns match the normalized text (lower case, diacritics
 * removed, whitespace collapsed), so they are written in that form:
 * - a pattern matches whole words only: `delete` does not match "undeleted";
 * - `*` at the start or end of a word stands for any further letters, for
 *   stems and compounds: `losch*` (löschen, Löschung), `*loschung` (Datenlöschung);
 * - a space matches any whitespace or a hyphen: `opt out` matches "opt-out";
 * - `...` stands for up to three words of the same clause: `copy of ... data`;
 * - a `.` ending a word is optional: `art. 15` matches "Art. 15", "art 15", "Art.15";
 * - a `'` inside a word is optional: `don't` matches "dont".
 */

export const RULE_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
export type RuleLanguage = (typeof RULE_LANGUAGES)[number];

export interface RequestTypeRule {
  /** `<requestType>.<language>`; reported as the deciding rule. */
  id: string;
  requestType: RequestType;
  language: RuleLanguage;
  patterns: readonly string[];
}

/**
 * When a text matches rules of several types, the type listed first wins. The
 * order puts the narrower legal asks before the broader ones because their
 * wording routinely contains the broader vocabulary, and rarely the reverse:
 * an opt-out names "my personal information", an objection asks to "stop
 * processing", a restriction is often asked for instead of erasure (Art. 18(1)(b)
 * GDPR: "do not delete, restrict"), a portability request wants "a copy" sent
 * elsewhere, a rectification asks to "remove the wrong address". Deletion
 * comes before access because "send me my data and then delete it" is a
 * deletion the controller must not miss; access is the most general ask and
 * also the default. The first three also carry the shortest deadlines
 * (15 business days against 45 days in the us-ca-ccpa policy pack), so a mixed
 * text is tracked on the stricter clock.
 */
export const REQUEST_TYPE_PRECEDENCE: readonly RequestType[] = [
  'opt_out',
  'objection',
  'restriction',
  'portability',
  'rectification',
  'deletion',
  'access',
];

/** The type of a text that matches no rule: access is the right every other request also implies. */
export const DEFAULT_REQUEST_TYPE: RequestType = 'access';

/**
 * Negation is handled only where it is cheap and clear: a cue word among the
 * few words right before a match, in the same clause, cancels the match
 * ("don't delete my account, just send me a copy" is an access request).
 * The cues are those of the language of any rule that matched the same words.
 * Opt-out and objection are not negatable: their own wording is negative
 * ("do not sell", "no quiero recibir publicidad").
 */
export const NEGATABLE_TYPES: readonly RequestType[] = ['access', 'deletion', 'rectification', 'portability', 'restriction'];

/** How many words before a match a negation cue may stand. */
export const NEGATION_SCOPE_WORDS = 4;

/**
 * Negation cues, whole words of the normalized text. "can't" and "cannot" are
 * deliberately absent: "I can't delete my account myself" states an inability,
 * and is a deletion request.
 */
export const NEGATION_CUES: Readonly<Record<RuleLanguage, readonly string[]>> = {
  en: ['not', 'never', "don't", 'dont', "doesn't", 'doesnt', "didn't", 'didnt', "won't", "shouldn't", "mustn't"],
  de: ['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'nie', 'niemals', 'ohne'],
  fr: ['ne', "n'", 'pas', 'jamais', 'sans'],
  es: ['no', 'nunca', 'sin', 'ni', 'tampoco'],
  pt: ['nao', 'nunca', 'sem', 'nem'],
  it: ['non', 'mai', 'senza', 'ne'],
  nl: ['niet', 'geen', 'nooit', 'zonder'],
};

/**
 * Words that end the scope of a negation, like punctuation does: in "don't
 * delete it but send me a copy" the "but" shields "send me a copy".
 */
export const CLAUSE_BREAKERS: Readonly<Record<RuleLanguage, readonly string[]>> = {
  en: ['but', 'and', 'just', 'only', 'instead', 'rather', 'then', 'so'],
  de: ['aber', 'sondern', 'und', 'nur', 'stattdessen', 'dann'],
  fr: ['mais', 'et', 'seulement', 'juste', 'plutot', 'puis'],
  es: ['pero', 'sino', 'y', 'solo', 'solamente', 'luego'],
  pt: ['mas', 'e', 'so', 'apenas', 'somente', 'depois'],
  it: ['ma', 'e', 'solo', 'soltanto', 'invece', 'poi'],
  nl: ['maar', 'en', 'alleen', 'slechts', 'daarna'],
};

/**
 * Common words that tell the languages apart. They decide only which language a
 * phrase several languages share is reported in ("rectification" is English and
 * French, "corrigir" matches the French `corrig*`): the language whose words the
 * text uses most. Words common to two of the languages are left out.
 */
export const LANGUAGE_HINTS: Readonly<Record<RuleLanguage, readonly string[]>> = {
  en: ['the', 'and', 'my', 'you', 'your', 'please', 'of', 'to', 'with', 'this'],
  de: ['ich', 'und', 'der', 'das', 'mein', 'meine', 'meiner', 'bitte', 'sie', 'mich', 'nach', 'ist'],
  fr: ['je', 'et', 'les', 'mon', 'mes', 'vous', 'du', 'au', 'merci', 'est', 'une'],
  es: ['yo', 'y', 'el', 'los', 'mis', 'sus', 'solicito', 'quiero', 'gracias', 'usted', 'ustedes'],
  pt: ['eu', 'os', 'meu', 'meus', 'minha', 'dos', 'uma', 'quero', 'voces', 'obrigado', 'obrigada'],
  it: ['io', 'il', 'mio', 'mia', 'miei', 'di', 'che', 'per', 'dei', 'della', 'sono', 'chiedo', 'grazie'],
  nl: ['ik', 'het', 'mijn', 'van', 'een', 'uw', 'graag', 'ben', 'wil', 'niet', 'ook'],
};

const rule = (requestType: RequestType, language: RuleLanguage, patterns: readonly string[]): RequestTypeRule => ({
  id: `${requestType}.${language}`,
  requestType,
  language,
  patterns,
});

/**
 * The rules, grouped by type in precedence order and by language within a
 * type. Article numbers are the GDPR's (15 access, 16 rectification, 17 erasure,
 * 18 restriction, 20 portability, 21 objection); section numbers in English are
 * the CCPA's (Cal. Civ. Code 1798.100 ff.). A word shared by several languages
 * is listed in each, so each language's negation cues apply to it; LANGUAGE_HINTS
 * decide which language is reported.
 */
export const REQUEST_TYPE_RULES: readonly RequestTypeRule[] = [
  rule('opt_out', 'en', [
    'do not sell',
    "don't sell",
    'do not share',
    "don't share",
    'not to sell',
    'not to share',
    'opt out',
    'opt me out',
    'opting out',
    'opted out',
    'stop selling',
    'stop sharing',
    'sell my',
    'selling my',
    'sale of my',
    'sale of ... personal',
    'sharing of my',
    'targeted advertising',
    'cross context behavioral advertising',
    'behavioral advertising',
    'behavioural advertising',
    'global privacy control',
    '1798.120',
  ]),
  rule('opt_out', 'de', ['nicht verkaufen', 'nicht ... verkaufen', 'verkauf meiner daten', 'verkauf* ... daten', 'nicht weitergeben', 'nicht ... weitergeben', 'weitergabe ... daten']),
  rule('opt_out', 'fr', ['ne pas vendre', 'ne vendez pas', 'vente de mes donnees', 'vente ... donnees', 'vendre ... donnees', 'ne pas partager', 'ne partagez pas']),
  rule('opt_out', 'es', ['no vender', 'no vendan', 'no venda', 'venta de mis datos', 'venta ... datos', 'vender ... datos', 'no compartir', 'no compartan', 'no comparta']),
  rule('opt_out', 'pt', ['nao vender', 'nao vendam', 'nao venda', 'venda dos meus dados', 'venda ... dados', 'vender ... dados', 'nao compartilhar', 'nao compartilhem', 'nao partilhar']),
  rule('opt_out', 'it', ['non vendere', 'non vendete', 'vendita ... dati', 'non condividere', 'non condividete']),
  rule('opt_out', 'nl', ['niet verkopen', 'niet ... verkopen', 'verkoop van mijn gegevens', 'verkoop ... gegevens', 'niet delen', 'niet ... delen']),

  rule('objection', 'en', [
    'object to',
    'i object',
    'objection',
    'objecting',
    'stop processing',
    'stop using my',
    'direct marketing',
    'marketing emails',
    'marketing e mails',
    'stop ... marketing',
    'stop ... newsletter*',
    'stop ... promotional',
    'unsubscribe',
    'withdraw* ... consent',
    'revoke* ... consent',
    'profiling',
    'article 21',
    'art. 21',
  ]),
  rule('objection', 'de', [
    'widerspruch*',
    'widersprech*',
    'keine werbung',
    'keine ... werbung',
    'direktwerbung',
    'abbestell*',
    'newsletter abmelden',
    'widerruf* ... einwilligung',
    'einwilligung ... widerruf*',
    'artikel 21',
    'art. 21 ... dsgvo',
    'art. 21 ... ds gvo',
  ]),
  rule('objection', 'fr', [
    'opposition',
    "m'oppose",
    "je m'oppose",
    'opposer',
    'prospection',
    'demarchage',
    'desabonn*',
    'desinscri*',
    'ne plus recevoir',
    'retir* ... consentement',
    'retrait ... consentement',
    'article 21 ... rgpd',
    'art. 21 ... rgpd',
  ]),
  rule('objection', 'es', [
    'oposicion',
    'me opongo',
    'oponerme',
    'publicidad',
    'marketing directo',
    'comunicaciones comerciales',
    'darme de baja',
    'retir* ... consentimiento',
    'revoc* ... consentimiento',
    'articulo 21',
  ]),
  rule('objection', 'pt', [
    'oposicao',
    'me oponho',
    'oponho me',
    'opor me',
    'marketing direto',
    'publicidade',
    'descadastr*',
    'nao quero receber',
    'retir* ... consentimento',
    'revog* ... consentimento',
    'artigo 21',
  ]),
  rule('objection', 'it', ['opposizione', 'mi oppongo', 'oppormi', 'marketing diretto', 'disiscriv*', 'non voglio ricevere', 'revoc* ... consenso', 'articolo 21']),
  rule('objection', 'nl', ['bezwaar', 'afmelden', 'uitschrijven', 'direct marketing', 'toestemming ... intrekken', 'intrekken ... toestemming', 'artikel 21 ... avg', 'art. 21 ... avg']),

  rule('restriction', 'en', [
    'right to restrict*',
    'restrict* ... processing',
    'restrict the use',
    'restrict your use',
    'restrict how',
    'right to limit',
    'limit* ... processing',
    'limit the use',
    'limit your use',
    'limit use',
    'limit how',
    'limit* ... sensitive',
    'suspend* ... processing',
    'article 18',
    'art. 18',
    '1798.121',
  ]),
  rule('restriction', 'de', [
    'einschrankung der verarbeitung',
    'einschrank* ... verarbeitung',
    'verarbeitung ... einschrank*',
    'einschraenk* ... verarbeitung',
    'verarbeitung ... einschraenk*',
    'eingeschrankt* ... verarbeitung',
    'sperrung ... daten',
    'daten ... sperren',
    'artikel 18',
    'art. 18 ... dsgvo',
    'art. 18 ... ds gvo',
  ]),
  rule('restriction', 'fr', [
    'limitation du traitement',
    'limit* ... traitement',
    'restreindre ... traitement',
    'restriction ... traitement',
    'article 18 ... rgpd',
    'art. 18 ... rgpd',
  ]),
  rule('restriction', 'es', ['limitacion del tratamiento', 'limit* ... tratamiento', 'restring* ... tratamiento', 'restriccion ... tratamiento', 'articulo 18']),
  rule('restriction', 'pt', ['limitacao do tratamento', 'limit* ... tratamento', 'restring* ... tratamento', 'restricao ... tratamento', 'bloqueio ... dados', 'artigo 18']),
  rule('restriction', 'it', ['limitazione del trattamento', 'limit* ... trattamento', 'articolo 18']),
  rule('restriction', 'nl', ['beperking van de verwerking', 'beperk* ... verwerking', 'artikel 18 ... avg', 'art. 18 ... avg']),

  rule('portability', 'en', [
    'portability',
    'port my',
    'transfer my data',
    'transfer my personal',
    'transfer ... data to',
    'transmit ... data',
    'move my data',
    'to another provider',
    'to another service',
    'to another company',
    'to another controller',
    'to a new provider',
    'machine readable',
    'commonly used',
    'export my data',
    'export of my data',
    'data export',
    'article 20',
    'art. 20',
  ]),
  rule('portability', 'de', [
    'datenubertragbarkeit',
    'datenuebertragbarkeit',
    '*ubertragbarkeit',
    '*uebertragbarkeit',
    'ubertrag* ... daten',
    'daten ... ubertrag*',
    'uebertrag* ... daten',
    'daten ... uebertrag*',
    'maschinenlesbar*',
    'anderen anbieter',
    'neuen anbieter',
    'datenexport',
    'export* ... daten',
    'artikel 20',
    'art. 20 ... dsgvo',
    'art. 20 ... ds gvo',
  ]),
  rule('portability', 'fr', [
    'portabilite',
    'transfer* ... donnees',
    'autre fournisseur',
    'autre prestataire',
    'autre operateur',
    'lisible par machine',
    'format structure',
    'article 20 ... rgpd',
    'art. 20 ... rgpd',
  ]),
  rule('portability', 'es', ['portabilidad', 'transferir ... datos', 'otro proveedor', 'otra empresa', 'formato estructurado', 'lectura mecanica', 'articulo 20']),
  rule('portability', 'pt', ['portabilidade', 'transferir ... dados', 'outro fornecedor', 'outro provedor', 'outra empresa', 'formato estruturado', 'artigo 20']),
  rule('portability', 'it', ['portabilita', 'trasferire ... dati', 'trasferimento ... dati', 'altro fornitore', 'formato strutturato', 'articolo 20']),
  rule('portability', 'nl', ['overdraagbaarheid', 'dataportabiliteit', 'overdragen', 'over te dragen', 'andere aanbieder', 'artikel 20 ... avg', 'art. 20 ... avg']),

  rule('rectification', 'en', [
    'rectify',
    'rectified',
    'rectification',
    'right to correct',
    'correct my',
    'correct the',
    'correct it',
    'correct this',
    'corrected',
    'correcting',
    'correction',
    'inaccurate',
    'incorrect',
    'is wrong',
    'are wrong',
    'wrong address',
    'wrong name',
    'wrong email',
    'wrong e mail',
    'wrong phone',
    'wrong date',
    'misspelled',
    'misspelt',
    'out of date',
    'outdated',
    'update my',
    'update your records',
    'change my name',
    'change my address',
    'change my email',
    'change my e mail',
    'change my phone',
    'article 16',
    'art. 16',
    '1798.106',
  ]),
  rule('rectification', 'de', [
    'berichtig*',
    'korrigier*',
    'korrektur*',
    'unrichtig*',
    'fehlerhaft* ... daten',
    'falsche ... daten',
    'falsche adresse',
    'ist falsch',
    'sind falsch',
    'aktualisier* ... daten',
    'aktualisier* ... adresse',
    'artikel 16',
    'art. 16 ... dsgvo',
    'art. 16 ... ds gvo',
  ]),
  rule('rectification', 'fr', [
    'rectif*',
    'corrig*',
    'correction',
    'inexact',
    'inexacte',
    'inexacts',
    'inexactes',
    'errone*',
    'mettre a jour',
    'mise a jour de mes',
    'modifi* ... adresse',
    'article 16 ... rgpd',
    'art. 16 ... rgpd',
  ]),
  rule('rectification', 'es', [
    'rectificacion',
    'rectificar',
    'rectifiquen',
    'rectifique',
    'correg*',
    'corrij*',
    'correccion',
    'inexacto',
    'inexacta',
    'inexactos',
    'inexactas',
    'incorrecto',
    'incorrecta',
    'incorrectos',
    'incorrectas',
    'actualiz* ... datos',
    'actualiz* ... direccion',
    'articulo 16',
  ]),
  rule('rectification', 'pt', [
    'retific*',
    'retifiqu*',
    'rectificacao',
    'rectificar',
    'correcao',
    'corrigir',
    'corrijam',
    'inexato',
    'inexata',
    'inexatos',
    'inexatas',
    'incorreto',
    'incorreta',
    'incorretos',
    'incorretas',
    'dados errados',
    'endereco errado',
    'atualiz* ... dados',
    'atualiz* ... endereco',
    'artigo 16',
  ]),
  rule('rectification', 'it', ['rettific*', 'correggere', 'correggete', 'correzione', 'inesatt*', 'aggiorn* ... dati', 'articolo 16']),
  rule('rectification', 'nl', ['rectificatie', 'correctie', 'corrigeer*', 'corrigeren', 'onjuist*', 'verbeter* ... gegevens', 'artikel 16 ... avg', 'art. 16 ... avg']),

  rule('deletion', 'en', [
    'delete',
    'deleted',
    'deleting',
    'deletion',
    'erase',
    'erased',
    'erasing',
    'erasure',
    'right to be forgotten',
    'forget me',
    'remove my',
    'remove all my',
    'remove ... data',
    'close my account',
    'wipe ... data',
    'purge ... data',
    'article 17',
    'art. 17',
    '1798.105',
  ]),
  rule('deletion', 'de', [
    'losch*',
    '*loschung',
    'geloscht',
    'loesch*',
    '*loeschung',
    'geloescht',
    'entfern*',
    'recht auf vergessenwerden',
    'vergessenwerden',
    'vergessen werden',
    'artikel 17',
    'art. 17 ... dsgvo',
    'art. 17 ... ds gvo',
  ]),
  rule('deletion', 'fr', ['supprim*', 'suppression', 'effac*', 'effacement', "droit a l'oubli", 'article 17 ... rgpd', 'art. 17 ... rgpd']),
  rule('deletion', 'es', [
    'supresion',
    'suprim*',
    'eliminar',
    'eliminen',
    'elimine',
    'eliminacion',
    'borr*',
    'derecho al olvido',
    'cancelacion ... datos',
    'articulo 17',
  ]),
  rule('deletion', 'pt', [
    'eliminacao',
    'eliminar',
    'eliminem',
    'elimine',
    'exclusao',
    'excluir',
    'excluam',
    'exclua',
    'apagar',
    'apaguem',
    'apague',
    'apagamento',
    'deletar',
    'deletem',
    'direito ao esquecimento',
    'esquecimento',
    'artigo 17',
  ]),
  rule('deletion', 'it', ['cancellazione', 'cancellare', 'cancellate', 'cancellati', 'cancellato', 'eliminare', 'eliminazione', "diritto all'oblio", 'oblio', 'articolo 17']),
  rule('deletion', 'nl', ['verwijder*', 'recht op vergetelheid', 'vergetelheid', 'wis mijn', 'gegevens ... wissen', 'artikel 17 ... avg', 'art. 17 ... avg']),

  rule('access', 'en', [
    'subject access',
    'access request',
    'right of access',
    'right to access',
    'access to my',
    'access to the data',
    'access to the personal',
    'dsar',
    'sar',
    'copy of my',
    'copy of ... data',
    'copy of ... information',
    'send me a copy',
    'send me my data',
    'what data',
    'what personal data',
    'what information',
    'what personal information',
    'which data',
    'data you hold',
    'information you hold',
    'you hold about me',
    'you have about me',
    'you store about me',
    'you keep about me',
    'you have on me',
    'right to know',
    'request to know',
    'categories of personal information',
    'specific pieces',
    'download my data',
    'see my data',
    'article 15',
    'art. 15',
    '1798.100',
    '1798.110',
    '1798.115',
  ]),
  rule('access', 'de', [
    '*auskunft*',
    'kopie meiner daten',
    'kopie ... daten',
    'welche daten',
    'welche ... daten',
    'uber mich gespeichert*',
    'ueber mich gespeichert*',
    'gespeicherten daten',
    'zugang zu meinen daten',
    'einsicht ... daten',
    'artikel 15',
    'art. 15 ... dsgvo',
    'art. 15 ... ds gvo',
  ]),
  rule('access', 'fr', [
    "droit d'acces",
    "demande d'acces",
    'acces a mes donnees',
    'acces aux donnees',
    'acces ... donnees',
    'copie de mes donnees',
    'copie ... donnees',
    'quelles donnees',
    'quelles ... donnees',
    'donnees ... detenez',
    'communication de mes donnees',
    'article 15 ... rgpd',
    'art. 15 ... rgpd',
  ]),
  rule('access', 'es', [
    'derecho de acceso',
    'solicitud de acceso',
    'acceso a mis datos',
    'acceso ... datos',
    'copia de mis datos',
    'copia ... datos',
    'que datos',
    'cuales ... datos',
    'datos ... tienen',
    'informacion ... tienen',
    'articulo 15',
  ]),
  rule('access', 'pt', [
    'direito de acesso',
    'acesso aos dados',
    'acesso aos meus dados',
    'acesso ... dados',
    'copia dos meus dados',
    'copia ... dados',
    'quais dados',
    'quais ... dados',
    'que dados',
    'dados ... sobre mim',
    'artigo 15',
  ]),
  rule('access', 'it', ['diritto di accesso', 'accesso ai ... dati', 'accesso ... dati', 'copia dei miei dati', 'copia ... dati', 'quali dati', 'quali ... dati', 'articolo 15']),
  rule('access', 'nl', [
    '*inzage*',
    'recht op inzage',
    'kopie van mijn gegevens',
    'kopie ... gegevens',
    'welke gegevens',
    'welke ... gegevens',
    'artikel 15 ... avg',
    'art. 15 ... avg',
  ]),
];
