import type { NotificationKind } from '../notification-kinds';
import {
  type Frame,
  JURISDICTION,
  type MessageTemplates,
  NEW_DUE,
  TYPE_SUFFIX,
  fact,
  facts,
  list,
  operatorMessage,
  ownerMessage,
  p,
  quote,
  subjectMessage,
  SYSTEM,
  SYSTEM_NAME,
  CLAIM_COMMAND,
  ANSWER_COMMAND,
  DUPLICATE_RESOLUTION,
  BY_EMAIL,
  code,
  link,
  when,
} from './compose';

// French puts a (non-breaking) space before ":", ";", "?" and "!"; NBSP keeps the sign from wrapping to a new line.
const NBSP = '\u00a0';
const C = `${NBSP}:`;

const frame: Frame = {
  lang: 'fr',
  greeting: '{{#if recipientName}}Bonjour {{recipientName}},{{else}}Bonjour,{{/if}}',
  signOff: ['Cordialement,', "L'équipe chargée de la protection des données"],
  subjectFooter: 'Merci de rappeler votre référence {{reference}} dans toute réponse.',
  operatorFooter: 'Ce message ne contient aucune donnée personnelle. Consultez la demande à partir de sa référence pour plus de détails.',
  ownerFooter:
    "Vous recevez ce message en tant que responsable d'un système de données enregistré pour les demandes des personnes concernées. Il ne contient aucune donnée personnelle : les identifiants à rechercher sont fournis lors de la prise en charge.",
  colon: `${C} `,
};

const COMPLAINT =
  "le droit d'introduire une réclamation auprès d'une autorité de contrôle de la protection des données ou de toute autre autorité compétente, ainsi que de former un recours juridictionnel.";

export const fr: Record<NotificationKind, MessageTemplates> = {
  request_acknowledged: subjectMessage(frame, 'Accusé de réception de votre demande {{reference}}', [
    p('Nous vous remercions de votre message. Nous avons bien reçu votre demande et la traiterons conformément à la réglementation applicable en matière de protection des données.'),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Type de demande', '{{requestType requestType}}', 'requestType'),
      fact('Reçue le', '{{date receivedAt}}', 'receivedAt'),
      fact('Réponse au plus tard le', '{{date dueAt}}', 'dueAt'),
    ),
    quote('message'),
    when('dueAt', p('Nous vous répondrons au plus tard le {{date dueAt}}. Si nous avons besoin de plus de temps, nous vous en informerons avant cette date en vous en indiquant les raisons.')),
    p(`Il se peut que nous devions vérifier votre identité avant de pouvoir traiter votre demande${NBSP}; le cas échéant, nous reviendrons vers vous.`),
  ]),

  clarification_requested: subjectMessage(frame, `Votre demande {{reference}}${C} informations complémentaires nécessaires`, [
    p('Afin de pouvoir traiter votre demande {{reference}}, nous avons besoin de quelques informations complémentaires.'),
    quote('message', `Notre question${C}`),
    p(
      `Merci de répondre à ce message en nous communiquant les informations demandées. Dans l'attente de votre réponse, le délai de traitement de votre demande peut être suspendu${NBSP}; il reprendra dès que nous aurons reçu votre réponse.`,
    ),
  ]),

  verification_requested: subjectMessage(frame, `Votre demande {{reference}}${C} merci de confirmer votre identité`, [
    p('Afin de protéger vos données personnelles, nous devons vérifier votre identité avant de pouvoir donner suite à votre demande {{reference}}.'),
    when('verification.methods.length', p('Vous pouvez pour cela utiliser {{methods verification.methods}}.')),
    when(
      'verification.expiresAt',
      p(
        "Merci d'effectuer cette vérification avant le {{datetime verification.expiresAt}}. Si nous ne pouvons pas vérifier votre identité d'ici là, il se peut que nous ne puissions pas donner suite à votre demande.",
      ),
    ),
    p('Les informations que vous nous transmettrez à cette fin serviront uniquement à vérifier votre identité.'),
  ]),

  verification_reminder: subjectMessage(frame, `Rappel${C} merci de confirmer votre identité (demande {{reference}})`, [
    p("Nous attendons toujours la confirmation de votre identité pour votre demande {{reference}}. Nous ne pourrons pas la traiter tant que cette étape n'aura pas été effectuée."),
    when('verification.methods.length', p('Vous pouvez pour cela utiliser {{methods verification.methods}}.')),
    when(
      'verification.expiresAt',
      p("La vérification reste possible jusqu'au {{datetime verification.expiresAt}}. Passé ce délai, il se peut que nous ne puissions pas donner suite à votre demande."),
    ),
    p('Si vous avez déjà effectué cette vérification, merci de ne pas tenir compte de ce rappel.'),
  ]),

  deadline_extended: subjectMessage(frame, `Votre demande {{reference}}${C} prolongation du délai de réponse`, [
    p("Nous avons besoin d'un délai supplémentaire pour répondre à votre demande {{reference}}. Comme la loi l'exige, nous vous informons de cette prolongation, de sa durée et de ses motifs."),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Durée de la prolongation', '{{extensionLength extension}}', 'extension'),
      fact('Échéance initiale', '{{date extension.previousDueAt}}', 'extension.previousDueAt'),
      fact('Nouvelle échéance', `{{date ${NEW_DUE}}}`, NEW_DUE),
    ),
    quote('extension.reason', `Motifs de la prolongation${C}`),
    when(NEW_DUE, p(`Nous répondrons à votre demande au plus tard le {{date ${NEW_DUE}}}.`)),
    p('Si vous avez des questions concernant cette prolongation, il vous suffit de répondre à ce message.'),
  ]),

  request_refused: subjectMessage(frame, `Votre demande {{reference}}${C} notre décision`, [
    p(`Nous avons examiné attentivement votre demande {{reference}}${TYPE_SUFFIX}. Nous ne sommes malheureusement pas en mesure d'y donner suite.`),
    when('refusal.reason', facts(fact('Motif', '{{refusalReason refusal.reason}}'))),
    quote('message'),
    when(
      'refusal.appealAvailable',
      p(
        `Si vous n'êtes pas d'accord avec cette décision, vous pouvez former un recours auprès de nous${NBSP}: il vous suffit de répondre à ce message en rappelant votre référence {{reference}}. Vous avez également ${COMPLAINT}`,
      ),
      p(`Si vous n'êtes pas d'accord avec cette décision, vous avez ${COMPLAINT}`),
    ),
  ]),

  request_fulfilled: subjectMessage(frame, 'Votre demande {{reference}} a été traitée', [
    p(`Nous avons finalisé le traitement de votre demande {{reference}}${TYPE_SUFFIX}.`),
    p("Si vous avez des questions, ou si vous n'êtes pas satisfait(e) du traitement de votre demande, n'hésitez pas à répondre à ce message."),
  ]),

  delivery_prepared: subjectMessage(frame, `Votre demande {{reference}}${C} vos données sont prêtes`, [
    p('Les données que nous avons préparées en réponse à votre demande {{reference}} sont prêtes.'),
    when(
      BY_EMAIL,
      [
        when('delivery.link', [p(`Pour les télécharger, ouvrez ce lien${C}`), link('delivery.link')], p('Nous vous enverrons un lien pour les télécharger.')),
        when('delivery.expiresAt', p("Le lien est valable jusqu'au {{datetime delivery.expiresAt}}.")),
        p(
          `Le lien ne peut être ouvert qu'une seule fois, dans un seul navigateur${C} ouvrez-le dans le navigateur où vous souhaitez enregistrer vos fichiers, et téléchargez-les tous à partir de celui-ci. Pour accéder à la page, vous aurez besoin d'un code à usage unique, que nous vous envoyons dans un e-mail séparé.`,
        ),
        p('Ne transférez pas cet e-mail et ne communiquez ce lien à personne. Si le lien a expiré ou ne fonctionne plus, contactez-nous et nous vous en enverrons un nouveau.'),
      ],
      [
        when('delivery.channel', p('Elles vous seront transmises {{channel delivery.channel}}.'), p('Nous vous enverrons les instructions pour y accéder.')),
        when(
          '(eq delivery.level "standard")',
          p('Il pourra vous être demandé de vous connecter ou de confirmer à nouveau votre identité avant de pouvoir les consulter.'),
          p("Pour votre sécurité, vous aurez besoin d'un code à usage unique, que nous vous enverrons séparément, pour y accéder."),
        ),
        when(
          'delivery.expiresAt',
          p("Le lien est valable jusqu'au {{datetime delivery.expiresAt}}. Passé ce délai, contactez-nous et nous remettrons vos données à votre disposition."),
          p("Le lien n'est valable que pendant une durée limitée. S'il a expiré, contactez-nous et nous remettrons vos données à votre disposition."),
        ),
        p('Ne transmettez ni le lien ni le code à qui que ce soit. Nous ne vous demanderons jamais votre mot de passe.'),
      ],
    ),
  ]),

  delivery_code: subjectMessage(frame, `Votre demande {{reference}}${C} votre code à usage unique`, [
    when('delivery.code', [p(`Votre code à usage unique pour télécharger vos données${C}`), code('delivery.code')]),
    p("Saisissez ce code sur la page qu'ouvre le lien de notre autre e-mail concernant cette demande."),
    when('delivery.expiresAt', p("Le code est valable jusqu'au {{datetime delivery.expiresAt}} et ne fonctionne qu'avec ce lien.")),
    p("Ne communiquez jamais ce code à personne, pas même à nous. Nous ne vous le demanderons jamais, ni par téléphone, ni par e-mail, ni d'aucune autre manière."),
    p("Si vous n'avez pas demandé vos données, n'utilisez pas ce code et prévenez-nous sans attendre en indiquant votre référence {{reference}}, mais pas le code."),
  ]),

  appeal_received: subjectMessage(frame, 'Votre recours concernant la demande {{reference}} a bien été reçu', [
    p('Nous avons bien reçu votre recours concernant votre demande {{reference}}.'),
    when(
      'appeal.dueAt',
      p('Nous statuerons au plus tard le {{date appeal.dueAt}} et vous informerons de notre décision et de ses motifs.'),
      p("Nous vous informerons de notre décision et de ses motifs dès qu'elle aura été prise."),
    ),
  ]),

  appeal_decided: subjectMessage(frame, `Votre recours concernant la demande {{reference}}${C} notre décision`, [
    p('Nous avons statué sur votre recours concernant votre demande {{reference}}.'),
    when('appeal.decision', facts(fact('Décision', '{{appealDecision appeal.decision}}'))),
    quote('message'),
    when(
      'appeal.reopened',
      p('Nous avons rouvert votre demande et allons la traiter à nouveau.{{#if dueAt}} Nous vous répondrons au plus tard le {{date dueAt}}.{{/if}}'),
      p(`Si vous n'êtes pas d'accord avec cette décision, vous avez ${COMPLAINT}`),
    ),
  ]),

  request_created: operatorMessage(frame, `[DSAR] Nouvelle demande {{reference}}${TYPE_SUFFIX}`, [
    p('Une nouvelle demande a été reçue.'),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Type', '{{requestType requestType}}', 'requestType'),
      fact('Juridiction', JURISDICTION, '(or jurisdiction jurisdictionName)'),
      fact('Reçue le', '{{date receivedAt}}', 'receivedAt'),
      fact('Échéance', '{{date dueAt}}', 'dueAt'),
    ),
  ]),

  deadline_approaching: operatorMessage(frame, `[DSAR] Échéance proche${C} {{reference}}`, [
    p('Une échéance approche pour la demande {{reference}}.'),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Délai', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Jours restants', '{{deadline.thresholdDays}}', '(present deadline.thresholdDays)'),
      fact('Échéance', '{{date dueAt}}', 'dueAt'),
      fact('Statut', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Veillez à ce que la demande soit traitée dans les délais.'),
  ]),

  deadline_breached: operatorMessage(frame, `[DSAR] Délai dépassé${C} {{reference}}`, [
    p("Un délai applicable à la demande {{reference}} a expiré sans que l'action requise ait été effectuée."),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Délai', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Échéance', '{{date dueAt}}', 'dueAt'),
      fact('Statut', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Traitez la demande sans plus attendre et consignez la raison du retard.'),
  ]),

  verification_expired: operatorMessage(frame, `[DSAR] Vérification d'identité expirée${C} {{reference}}`, [
    p("La vérification d'identité pour la demande {{reference}} a expiré sans avoir été menée à terme."),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Expirée le', '{{datetime verification.expiresAt}}', 'verification.expiresAt'),
      fact('Moyens proposés', '{{methods verification.methods}}', 'verification.methods.length'),
      fact('Échéance de la demande', '{{date dueAt}}', 'dueAt'),
    ),
    p("Décidez de la suite à donner à la demande, par exemple un refus au motif que l'identité n'a pas pu être vérifiée."),
  ]),

  appeal_by_reply: operatorMessage(frame, `[DSAR] {{#if appeal.dueAt}}Recours par réponse{{else}}Réponse à un refus, à confirmer{{/if}}${C} {{reference}}`, [
    when(
      'appeal.dueAt',
      p('La personne a répondu au refus de la demande {{reference}} et sa réponse a été enregistrée comme recours.'),
      p("Une réponse au refus de la demande {{reference}} n'a pas pu être confirmée comme venant de la personne concernée. Aucun recours n'a été enregistré."),
    ),
    facts(fact('Référence', '{{reference}}'), fact('Identifiant', '{{requestId}}'), fact('Recours à trancher avant le', '{{date appeal.dueAt}}', 'appeal.dueAt')),
    when(
      'appeal.dueAt',
      p("Tranchez le recours avant son échéance. La réponse figure dans l'historique de la demande ; lisez-la dans la boîte ou le canal où elle est arrivée."),
      p('Lisez la réponse dans la boîte ou le canal où elle est arrivée, vérifiez-la auprès de la personne et, si elle conteste le refus, enregistrez le recours pour elle.'),
    ),
  ]),

  message_parked: operatorMessage(frame, `[DSAR] Message mis de côté{{#if parked.eventType}}${C} {{parked.eventType}}{{/if}} ({{reference}})`, [
    p("Un message n'a pas pu être traité et a été mis de côté pour examen. Tant qu'il n'est pas traité, la demande {{reference}} risque de ne pas être à jour."),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Topic', '{{parked.topic}}', 'parked.topic'),
      fact("Type d'événement", '{{parked.eventType}}', 'parked.eventType'),
      fact('Consommateur', '{{parked.consumer}}', 'parked.consumer'),
      fact('Motif', '{{parked.reason}}', 'parked.reason'),
      fact("Sujet de l'événement", '{{parked.subject}}', 'parked.subject'),
    ),
    p('Examinez le message, corrigez la cause et rejouez-le.'),
  ]),

  daily_digest: operatorMessage(frame, `[DSAR] Récapitulatif quotidien{{#if digest.date}} du {{date digest.date}}{{/if}}${C} {{count digest.atRisk}} à risque, {{count digest.overdue}} en retard`, [
    facts(
      fact('Date', '{{date digest.date}}', 'digest.date'),
      fact('À risque', '{{count digest.atRisk}}'),
      fact('En retard', '{{count digest.overdue}}'),
      fact('Référence du récapitulatif', '{{reference}}'),
    ),
    list('digest.overdue', `{{reference}} ({{requestId}}) – échéance${C} {{date dueAt}} ({{status}})`, `Demandes en retard${C}`),
    list('digest.atRisk', `{{reference}} ({{requestId}}) – échéance${C} {{date dueAt}} ({{status}})`, `Demandes à risque${C}`),
    when('(or (count digest.atRisk) (count digest.overdue))', [], p('Aucune demande à risque ni en retard.')),
  ]),

  notification_failed: operatorMessage(frame, `[DSAR] Notification non distribuée${C} {{reference}}`, [
    p("Une notification n'a pas pu être distribuée."),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Notification', '{{failure.kind}}', 'failure.kind'),
      fact('Canal', '{{failure.channel}}', 'failure.channel'),
      fact('Destinataire', '{{mask failure.destination}}', 'failure.destination'),
      fact('Erreur', '{{failure.error}}', 'failure.error'),
    ),
    p('Vérifiez la configuration du canal et, si nécessaire, veillez à ce que la personne concernée soit informée par un autre moyen.'),
  ]),
  task_assigned: ownerMessage(frame, `[DSAR] Nouvelle tâche{{#if task}} pour ${SYSTEM_NAME}{{/if}}${C} {{reference}}`, [
    p("Une demande d'une personne concernée nécessite une intervention dans un système de données dont vous êtes responsable."),
    facts(
      fact('Tâche', '{{task.id}}', 'task.id'),
      fact('Système', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('À traiter avant le', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Délai légal de la demande', '{{date task.legalDueAt}}', 'task.legalDueAt'),
      fact('Demande', '{{reference}}'),
    ),
    when(
      'task.id',
      p(
        `Prenez la tâche en charge${C} la prise en charge indique les identifiants à rechercher et vous donne le jeton de votre réponse${C}\n${CLAIM_COMMAND}\nRépondez ensuite, avec le jeton de la prise en charge dans DSAR_TASK_TOKEN (complete, not_found, error, action_required ou skipped${NBSP}; un effacement avec sa confirmation)${C}\n${ANSWER_COMMAND}`,
      ),
    ),
    p("Merci de répondre avant l'échéance. Si ce n'est pas possible, répondez avec le résultat qui s'applique plutôt que de laisser la tâche ouverte."),
  ]),

  task_overdue: ownerMessage(frame, `[DSAR] Tâche en retard{{#if task}} pour ${SYSTEM_NAME}{{/if}}${C} {{reference}}`, [
    p("Une tâche d'un système de données dont vous êtes responsable a dépassé son échéance sans réponse."),
    facts(
      fact('Tâche', '{{task.id}}', 'task.id'),
      fact('Système', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('Échéance', '{{date task.dueAt}}', 'task.dueAt'),
      fact('État', '{{task.state}}', 'task.state'),
      fact('Expire le', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
      fact('Demande', '{{reference}}'),
    ),
    when(
      'task.id',
      p(`Pour la prendre en charge (si personne ne l'a fait)${C}\n${CLAIM_COMMAND}\nPour y répondre, avec le jeton de votre prise en charge dans DSAR_TASK_TOKEN${C}\n${ANSWER_COMMAND}`),
    ),
    p("Si le système ne peut pas répondre, répondez avec le résultat qui s'applique (not_found, error ou action_required). Les opérateurs sont alertés si la tâche reste ouverte."),
  ]),

  task_escalated: operatorMessage(frame, `[DSAR] Système de données en retard{{#if task}}${C} ${SYSTEM_NAME}{{/if}} ({{reference}})`, [
    p(`La tâche d'un système de données pour la demande {{reference}} est en retard${NBSP}; son responsable a été relancé et n'a pas répondu.`),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Tâche', '{{task.id}}', 'task.id'),
      fact('Système', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('État', '{{task.state}}', 'task.state'),
      fact('Échéance', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Expire le', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
    ),
    p(`Relancez le responsable du système, ou réglez la tâche sur la demande${C} la relancer, l'ignorer en donnant un motif, ou la clore à la main avec la preuve.`),
  ]),
  duplicate_marked: operatorMessage(frame, `[DSAR] Marquée comme doublon${C} {{reference}}{{#if duplicate.ofReference}} de {{duplicate.ofReference}}{{/if}}`, [
    when(
      'duplicate.ofReference',
      p(
        `La demande {{reference}} a été marquée à sa réception comme doublon de la demande {{duplicate.ofReference}}${C} elle a une identité en commun avec une demande ouverte du même type et de la même juridiction, reçue dans la période du contrôle.`,
      ),
      p(`La demande {{reference}} a été marquée à sa réception comme doublon${C} elle a une identité en commun avec une demande ouverte du même type et de la même juridiction.`),
    ),
    facts(
      fact('Référence', '{{reference}}'),
      fact('Identifiant', '{{requestId}}'),
      fact('Doublon de', '{{duplicate.ofReference}} ({{duplicate.of}})', 'duplicate.of'),
      fact('Correspondance sur', '{{identityKinds duplicate.matchedKinds}}', 'duplicate.matchedKinds.length'),
      fact('Demandes avec ces identités', '{{duplicate.sameIdentityRequests}}{{#if duplicate.windowDays}} en {{days duplicate.windowDays}}{{/if}}', 'duplicate.sameIdentityRequests'),
      fact('Marquée le', '{{datetime duplicate.markedAt}}', 'duplicate.markedAt'),
    ),
    p(
      `La demande reste ouverte jusqu'à votre décision, motivée${C} la confirmer (elle est refusée comme doublon et la personne reçoit la référence de la demande antérieure) ou la séparer (elle est traitée comme une demande distincte)${C}\n${DUPLICATE_RESOLUTION}`,
    ),
  ]),
};
