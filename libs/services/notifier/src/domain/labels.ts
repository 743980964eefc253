import type { Locale } from './notification-kinds';

/**
 * Localized names for the codes that reach templates. The lists cover the
 * codes the contracts define today plus the older names still found in stored
 * events (e.g. `legal_exemption`, `opt_out_sale`); a code missing here is
 * shown as it is rather than hidden, so nothing silently disappears from a
 * legal notice.
 */
/**
 * The code a request without a type (in triage) is shown under: the templates show the type's label where a type
 * is known, and for this code each language's neutral words for a data protection request.
 */
export const TRIAGE_TYPE_CODE = 'triage';

/** The request type a template shows: a request in triage (null) gets the neutral TRIAGE_TYPE_CODE. */
export function shownRequestType(requestType: string | null | undefined): string | undefined {
  return requestType === null ? TRIAGE_TYPE_CODE : requestType;
}

export interface Labels {
  requestTypes: Readonly<Record<string, string>>;
  refusalReasons: Readonly<Record<string, string>>;
  appealDecisions: Readonly<Record<string, string>>;
  /** Noun phrases, joined into "X, Y or Z" by the `methods` helper. */
  verificationMethods: Readonly<Record<string, string>>;
  /** Adverbial phrases that complete "You will receive your data …". */
  deliveryChannels: Readonly<Record<string, string>>;
  deadlineKinds: Readonly<Record<string, string>>;
  /** What a data system is asked to do for a task (DATA_SYSTEM_ACTIONS). */
  taskActions: Readonly<Record<string, string>>;
  /** The kinds of identity a duplicate matched on (IDENTITY_KINDS): noun phrases, joined into "X and Y" by the `identityKinds` helper. */
  identityKinds: Readonly<Record<string, string>>;
}

const en: Labels = {
  requestTypes: {
    // A request in triage (no type yet): neutral words, since the right asked is still to be confirmed.
    triage: 'Data protection request',
    access: 'Access to personal data',
    deletion: 'Deletion of personal data',
    rectification: 'Correction of personal data',
    portability: 'Data portability',
    objection: 'Objection to processing',
    restriction: 'Restriction of processing',
    opt_out: 'Opt-out',
    opt_out_sale: 'Opt-out of sale or sharing',
  },
  refusalReasons: {
    identity_not_verified: 'We were unable to verify your identity',
    manifestly_unfounded: 'The request is manifestly unfounded',
    excessive: 'The request is excessive, in particular because of its repetitive character',
    legal_exemption: 'A legal exemption applies',
    exemption_applies: 'A legal exemption applies',
    no_data_held: 'We do not hold any personal data about you',
    outside_jurisdiction: 'The applicable law does not grant this right in your case',
    duplicate: 'The request duplicates an earlier request',
    other: 'Other reasons',
  },
  appealDecisions: {
    approve: 'Appeal upheld',
    partial: 'Appeal partly upheld',
    deny: 'Appeal rejected',
  },
  verificationMethods: {
    email: 'a confirmation sent by email',
    sms: 'a code sent by text message',
    document: 'an identity document',
    knowledge_based: 'security questions',
    existing_auth: 'signing in to your account with us',
    manual: 'a check by our team',
    account_match: 'a code sent to the contact details we hold',
    signed_declaration: 'a signed declaration',
  },
  deliveryChannels: {
    portal: 'through our secure portal',
    email: 'by email',
    secure_remote_access: 'through secure remote access',
  },
  deadlineKinds: { response: 'Response deadline', acknowledgement: 'Acknowledgement deadline' },
  taskActions: {
    access: 'Access: find and export the data',
    erasure: 'Erasure',
    rectification: 'Correction',
    restriction: 'Restriction of processing',
    objection: 'Objection to processing',
    opt_out: 'Opt-out',
  },
  identityKinds: { email: 'email address', phone: 'phone number', account: 'account ID' },
};

const de: Labels = {
  requestTypes: {
    // A request in triage (no type yet): neutral words, since the right asked is still to be confirmed.
    triage: 'Datenschutzanfrage',
    access: 'Auskunft über personenbezogene Daten',
    deletion: 'Löschung personenbezogener Daten',
    rectification: 'Berichtigung personenbezogener Daten',
    portability: 'Datenübertragbarkeit',
    objection: 'Widerspruch gegen die Verarbeitung',
    restriction: 'Einschränkung der Verarbeitung',
    opt_out: 'Opt-out',
    opt_out_sale: 'Widerspruch gegen Verkauf oder Weitergabe',
  },
  refusalReasons: {
    identity_not_verified: 'Wir konnten Ihre Identität nicht bestätigen',
    manifestly_unfounded: 'Der Antrag ist offenkundig unbegründet',
    excessive: 'Der Antrag ist exzessiv, insbesondere wegen häufiger Wiederholung',
    legal_exemption: 'Es greift eine gesetzliche Ausnahme',
    exemption_applies: 'Es greift eine gesetzliche Ausnahme',
    no_data_held: 'Wir verarbeiten keine personenbezogenen Daten über Sie',
    outside_jurisdiction: 'Das anwendbare Recht gewährt Ihnen dieses Recht in Ihrem Fall nicht',
    duplicate: 'Der Antrag wiederholt einen bereits gestellten Antrag',
    other: 'Sonstige Gründe',
  },
  appealDecisions: {
    approve: 'Dem Einspruch wird stattgegeben',
    partial: 'Dem Einspruch wird teilweise stattgegeben',
    deny: 'Der Einspruch wird zurückgewiesen',
  },
  verificationMethods: {
    email: 'Bestätigung per E-Mail',
    sms: 'Code per SMS',
    document: 'Ausweisdokument',
    knowledge_based: 'Sicherheitsfragen',
    existing_auth: 'Anmeldung in Ihrem Kundenkonto',
    manual: 'Prüfung durch unser Team',
    account_match: 'Code an die bei uns hinterlegten Kontaktdaten',
    signed_declaration: 'unterschriebene Erklärung',
  },
  deliveryChannels: {
    portal: 'über unser gesichertes Portal',
    email: 'per E-Mail',
    secure_remote_access: 'über einen gesicherten Fernzugang',
  },
  deadlineKinds: { response: 'Antwortfrist', acknowledgement: 'Frist für die Eingangsbestätigung' },
  taskActions: {
    access: 'Auskunft: Daten finden und exportieren',
    erasure: 'Löschung',
    rectification: 'Berichtigung',
    restriction: 'Einschränkung der Verarbeitung',
    objection: 'Widerspruch gegen die Verarbeitung',
    opt_out: 'Opt-out',
  },
  identityKinds: { email: 'E-Mail-Adresse', phone: 'Telefonnummer', account: 'Konto-ID' },
};

const fr: Labels = {
  requestTypes: {
    // A request in triage (no type yet): neutral words, since the right asked is still to be confirmed.
    triage: 'Demande relative aux données personnelles',
    access: 'Accès aux données personnelles',
    deletion: 'Effacement des données personnelles',
    rectification: 'Rectification des données personnelles',
    portability: 'Portabilité des données',
    objection: 'Opposition au traitement',
    restriction: 'Limitation du traitement',
    opt_out: 'Opposition (opt-out)',
    opt_out_sale: 'Opposition à la vente ou au partage',
  },
  refusalReasons: {
    identity_not_verified: "Nous n'avons pas pu vérifier votre identité",
    manifestly_unfounded: 'La demande est manifestement infondée',
    excessive: 'La demande est excessive, notamment en raison de son caractère répétitif',
    legal_exemption: "Une exception prévue par la loi s'applique",
    exemption_applies: "Une exception prévue par la loi s'applique",
    no_data_held: 'Nous ne détenons aucune donnée personnelle vous concernant',
    outside_jurisdiction: 'Le droit applicable ne vous accorde pas ce droit dans votre situation',
    duplicate: 'La demande fait double emploi avec une demande antérieure',
    other: 'Autres motifs',
  },
  appealDecisions: {
    approve: 'Recours accueilli',
    partial: 'Recours partiellement accueilli',
    deny: 'Recours rejeté',
  },
  verificationMethods: {
    email: 'une confirmation par e-mail',
    sms: 'un code envoyé par SMS',
    document: "une pièce d'identité",
    knowledge_based: 'des questions de sécurité',
    existing_auth: 'la connexion à votre compte client',
    manual: 'une vérification par notre équipe',
    account_match: 'un code envoyé aux coordonnées dont nous disposons',
    signed_declaration: 'une déclaration signée',
  },
  deliveryChannels: {
    portal: 'via notre portail sécurisé',
    email: 'par e-mail',
    secure_remote_access: "au moyen d'un accès à distance sécurisé",
  },
  deadlineKinds: { response: 'Délai de réponse', acknowledgement: "Délai d'accusé de réception" },
  taskActions: {
    access: 'Accès : trouver et exporter les données',
    erasure: 'Effacement',
    rectification: 'Rectification',
    restriction: 'Limitation du traitement',
    objection: 'Opposition au traitement',
    opt_out: 'Opt-out',
  },
  identityKinds: { email: 'adresse e-mail', phone: 'numéro de téléphone', account: 'identifiant de compte' },
};

const es: Labels = {
  requestTypes: {
    // A request in triage (no type yet): neutral words, since the right asked is still to be confirmed.
    triage: 'Solicitud de protección de datos',
    access: 'Acceso a los datos personales',
    deletion: 'Supresión de los datos personales',
    rectification: 'Rectificación de los datos personales',
    portability: 'Portabilidad de los datos',
    objection: 'Oposición al tratamiento',
    restriction: 'Limitación del tratamiento',
    opt_out: 'Exclusión voluntaria (opt-out)',
    opt_out_sale: 'Exclusión de la venta o el intercambio de datos',
  },
  refusalReasons: {
    identity_not_verified: 'No hemos podido verificar su identidad',
    manifestly_unfounded: 'La solicitud es manifiestamente infundada',
    excessive: 'La solicitud es excesiva, en particular por su carácter repetitivo',
    legal_exemption: 'Se aplica una excepción prevista por la ley',
    exemption_applies: 'Se aplica una excepción prevista por la ley',
    no_data_held: 'No tratamos datos personales suyos',
    outside_jurisdiction: 'La legislación aplicable no le reconoce este derecho en su caso',
    duplicate: 'La solicitud duplica una solicitud anterior',
    other: 'Otros motivos',
  },
  appealDecisions: {
    approve: 'Apelación estimada',
    partial: 'Apelación estimada parcialmente',
    deny: 'Apelación desestimada',
  },
  verificationMethods: {
    email: 'una confirmación por correo electrónico',
    sms: 'un código enviado por SMS',
    document: 'un documento de identidad',
    knowledge_based: 'preguntas de seguridad',
    existing_auth: 'el inicio de sesión en su cuenta',
    manual: 'una comprobación por parte de nuestro equipo',
    account_match: 'un código enviado a los datos de contacto que tenemos registrados',
    signed_declaration: 'una declaración firmada',
  },
  deliveryChannels: {
    portal: 'a través de nuestro portal seguro',
    email: 'por correo electrónico',
    secure_remote_access: 'mediante un acceso remoto seguro',
  },
  deadlineKinds: { response: 'Plazo de respuesta', acknowledgement: 'Plazo de acuse de recibo' },
  taskActions: {
    access: 'Acceso: localizar y exportar los datos',
    erasure: 'Supresión',
    rectification: 'Rectificación',
    restriction: 'Limitación del tratamiento',
    objection: 'Oposición al tratamiento',
    opt_out: 'Exclusión (opt-out)',
  },
  identityKinds: { email: 'dirección de correo electrónico', phone: 'número de teléfono', account: 'identificador de cuenta' },
};

const pt: Labels = {
  requestTypes: {
    // A request in triage (no type yet): neutral words, since the right asked is still to be confirmed.
    triage: 'Pedido de proteção de dados',
    access: 'Acesso aos dados pessoais',
    deletion: 'Eliminação dos dados pessoais',
    rectification: 'Correção dos dados pessoais',
    portability: 'Portabilidade dos dados',
    objection: 'Oposição ao tratamento',
    restriction: 'Limitação do tratamento',
    opt_out: 'Opt-out',
    opt_out_sale: 'Oposição à venda ou ao compartilhamento',
  },
  refusalReasons: {
    identity_not_verified: 'Não conseguimos verificar sua identidade',
    manifestly_unfounded: 'A solicitação é manifestamente infundada',
    excessive: 'A solicitação é excessiva, em especial por seu caráter repetitivo',
    legal_exemption: 'Aplica-se uma exceção prevista em lei',
    exemption_applies: 'Aplica-se uma exceção prevista em lei',
    no_data_held: 'Não mantemos dados pessoais sobre você',
    outside_jurisdiction: 'A legislação aplicável não lhe garante esse direito no seu caso',
    duplicate: 'A solicitação repete uma solicitação anterior',
    other: 'Outros motivos',
  },
  appealDecisions: {
    approve: 'Recurso deferido',
    partial: 'Recurso parcialmente deferido',
    deny: 'Recurso indeferido',
  },
  verificationMethods: {
    email: 'uma confirmação por e-mail',
    sms: 'um código enviado por SMS',
    document: 'um documento de identidade',
    knowledge_based: 'perguntas de segurança',
    existing_auth: 'login na sua conta',
    manual: 'uma verificação feita pela nossa equipe',
    account_match: 'um código enviado aos contatos que temos cadastrados',
    signed_declaration: 'uma declaração assinada',
  },
  deliveryChannels: {
    portal: 'pelo nosso portal seguro',
    email: 'por e-mail',
    secure_remote_access: 'por meio de acesso remoto seguro',
  },
  deadlineKinds: { response: 'Prazo de resposta', acknowledgement: 'Prazo de confirmação de recebimento' },
  taskActions: {
    access: 'Acesso: localizar e exportar os dados',
    erasure: 'Eliminação',
    rectification: 'Correção',
    restriction: 'Restrição do tratamento',
    objection: 'Oposição ao tratamento',
    opt_out: 'Opt-out',
  },
  identityKinds: { email: 'endereço de e-mail', phone: 'número de telefone', account: 'ID da conta' },
};

export const LABELS: Readonly<Record<Locale, Labels>> = { en, de, fr, es, pt };
