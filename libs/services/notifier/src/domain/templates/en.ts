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

const frame: Frame = {
  lang: 'en',
  greeting: '{{#if recipientName}}Dear {{recipientName}},{{else}}Hello,{{/if}}',
  signOff: ['Kind regards,', 'The privacy team'],
  subjectFooter: 'Please quote your reference {{reference}} in any reply.',
  operatorFooter: 'This message contains no personal data. Open the request by its reference for details.',
  ownerFooter: 'You receive this message as the owner of a data system registered for data subject requests. It contains no personal data: the identities to look for come with the claim.',
};

const COMPLAINT = 'You also have the right to lodge a complaint with a data protection supervisory authority or another competent regulator, and to seek a judicial remedy.';

export const en: Record<NotificationKind, MessageTemplates> = {
  request_acknowledged: subjectMessage(frame, 'We have received your request {{reference}}', [
    p('Thank you for contacting us. We have received your request and will handle it in accordance with the applicable data protection law.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Type of request', '{{requestType requestType}}', 'requestType'),
      fact('Received on', '{{date receivedAt}}', 'receivedAt'),
      fact('Response due by', '{{date dueAt}}', 'dueAt'),
    ),
    quote('message'),
    when('dueAt', p('We will respond by {{date dueAt}} at the latest. If we need more time, we will let you know before then and explain why.')),
    p('We may need to confirm your identity before we can act on your request; if so, we will contact you.'),
  ]),

  clarification_requested: subjectMessage(frame, 'Your request {{reference}}: we need more information', [
    p('To handle your request {{reference}}, we need some more information from you.'),
    quote('message', 'Our question:'),
    p(
      'Please reply to this message with the information requested. Until we receive your answer, the time limit for responding to your request may be paused; it resumes as soon as we hear from you.',
    ),
  ]),

  verification_requested: subjectMessage(frame, 'Your request {{reference}}: please confirm your identity', [
    p('To protect your personal data, we need to confirm your identity before we can act on your request {{reference}}.'),
    when('verification.methods.length', p('You can do this with {{methods verification.methods}}.')),
    when('verification.expiresAt', p('Please complete the verification by {{datetime verification.expiresAt}}. If we cannot confirm your identity by then, we may be unable to act on your request.')),
    p('We will use the information you give us for this purpose only to confirm your identity.'),
  ]),

  verification_reminder: subjectMessage(frame, 'Reminder: please confirm your identity for request {{reference}}', [
    p('We are still waiting for you to confirm your identity for your request {{reference}}. We cannot act on your request until this is done.'),
    when('verification.methods.length', p('You can do this with {{methods verification.methods}}.')),
    when('verification.expiresAt', p('Verification is open until {{datetime verification.expiresAt}}. After that, we may be unable to act on your request.')),
    p('If you have already completed the verification, please disregard this reminder.'),
  ]),

  deadline_extended: subjectMessage(frame, 'Your request {{reference}}: we need more time to respond', [
    p('We need more time to respond to your request {{reference}}. As the law requires, we are informing you of the extension, how long it is and the reasons for it.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Extended by', '{{extensionLength extension}}', 'extension'),
      fact('Previous due date', '{{date extension.previousDueAt}}', 'extension.previousDueAt'),
      fact('New due date', `{{date ${NEW_DUE}}}`, NEW_DUE),
    ),
    quote('extension.reason', 'Reasons for the extension:'),
    when(NEW_DUE, p(`We will respond to your request by {{date ${NEW_DUE}}} at the latest.`)),
    p('If you have any questions about the extension, simply reply to this message.'),
  ]),

  request_refused: subjectMessage(frame, 'Your request {{reference}}: our decision', [
    p(`We have carefully reviewed your request {{reference}}${TYPE_SUFFIX}. Unfortunately, we are unable to comply with it.`),
    when('refusal.reason', facts(fact('Reason', '{{refusalReason refusal.reason}}'))),
    quote('message'),
    when(
      'refusal.appealAvailable',
      p(`If you disagree with this decision, you have the right to appeal it to us: simply reply to this message, quoting your reference {{reference}}. ${COMPLAINT}`),
      p('If you disagree with this decision, you have the right to lodge a complaint with a data protection supervisory authority or another competent regulator, and to seek a judicial remedy.'),
    ),
  ]),

  request_fulfilled: subjectMessage(frame, 'Your request {{reference}} has been completed', [
    p(`We have completed your request {{reference}}${TYPE_SUFFIX}.`),
    p('If you have any questions, or if you are not satisfied with how we handled your request, please reply to this message.'),
  ]),

  delivery_prepared: subjectMessage(frame, 'Your request {{reference}}: your data is ready', [
    p('The data we prepared in response to your request {{reference}} is ready for you.'),
    when(
      BY_EMAIL,
      [
        when('delivery.link', [p('To download it, open this link:'), link('delivery.link')], p('We will send you a link to download it.')),
        when('delivery.expiresAt', p('The link is valid until {{datetime delivery.expiresAt}}.')),
        p(
          'The link can be opened only once, in one browser: open it in the browser in which you want to save your files, and download them all there. To open the page, you will need a one-time code, which we are sending you in a separate email.',
        ),
        p('Please do not forward this email or share the link with anyone. If the link has expired or no longer works, contact us and we will send you a new one.'),
      ],
      [
        when('delivery.channel', p('You will receive it {{channel delivery.channel}}.'), p('We will send you instructions on how to retrieve it.')),
        when(
          '(eq delivery.level "standard")',
          p('You may be asked to sign in or to confirm your identity again before you can open it.'),
          p('For your protection, you will need a one-time code, which we will send you separately, before you can open it.'),
        ),
        when(
          'delivery.expiresAt',
          p('The link is valid until {{datetime delivery.expiresAt}}. After that, please contact us and we will make your data available again.'),
          p('The link is valid for a limited time only. If it has expired, please contact us and we will make your data available again.'),
        ),
        p('Please do not share the link or the code with anyone. We will never ask you for your password.'),
      ],
    ),
  ]),

  delivery_code: subjectMessage(frame, 'Your request {{reference}}: your one-time code', [
    when('delivery.code', [p('Your one-time code for downloading your data is:'), code('delivery.code')]),
    p('Enter the code on the page that the link in our other email about this request opens.'),
    when('delivery.expiresAt', p('The code is valid until {{datetime delivery.expiresAt}} and works with that link only.')),
    p('Never share this code with anyone, not even with us. We will never ask you for it, by phone, by email or in any other way.'),
    p('If you did not ask for your data, do not use the code and let us know at once, quoting your reference {{reference}} but not the code.'),
  ]),

  appeal_received: subjectMessage(frame, 'We have received your appeal concerning request {{reference}}', [
    p('We have received your appeal concerning your request {{reference}}.'),
    when(
      'appeal.dueAt',
      p('We will decide on it by {{date appeal.dueAt}} at the latest and let you know the outcome and the reasons for it.'),
      p('We will let you know the outcome and the reasons for it as soon as we have decided.'),
    ),
  ]),

  appeal_decided: subjectMessage(frame, 'Your appeal concerning request {{reference}}: our decision', [
    p('We have decided on your appeal concerning your request {{reference}}.'),
    when('appeal.decision', facts(fact('Decision', '{{appealDecision appeal.decision}}'))),
    quote('message'),
    when(
      'appeal.reopened',
      p('We have reopened your request and will process it again.{{#if dueAt}} We will respond by {{date dueAt}} at the latest.{{/if}}'),
      p(`If you disagree with this decision, you have the right to lodge a complaint with a data protection supervisory authority or another competent regulator, and to seek a judicial remedy.`),
    ),
  ]),

  request_created: operatorMessage(frame, `[DSAR] New request {{reference}}${TYPE_SUFFIX}`, [
    p('A new request has been received.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Type', '{{requestType requestType}}', 'requestType'),
      fact('Jurisdiction', JURISDICTION, '(or jurisdiction jurisdictionName)'),
      fact('Received', '{{date receivedAt}}', 'receivedAt'),
      fact('Due', '{{date dueAt}}', 'dueAt'),
    ),
  ]),

  deadline_approaching: operatorMessage(frame, '[DSAR] Deadline approaching: {{reference}}', [
    p('A deadline for request {{reference}} is approaching.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Deadline', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Days remaining', '{{deadline.thresholdDays}}', '(present deadline.thresholdDays)'),
      fact('Due', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Please make sure the request is handled in time.'),
  ]),

  deadline_breached: operatorMessage(frame, '[DSAR] Deadline missed: {{reference}}', [
    p('A deadline for request {{reference}} has passed without the required action.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Deadline', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Was due', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Please handle the request without further delay and record the reason for the delay.'),
  ]),

  verification_expired: operatorMessage(frame, '[DSAR] Identity verification expired: {{reference}}', [
    p('Identity verification for request {{reference}} expired before it was completed.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Expired', '{{datetime verification.expiresAt}}', 'verification.expiresAt'),
      fact('Methods offered', '{{methods verification.methods}}', 'verification.methods.length'),
      fact('Request due', '{{date dueAt}}', 'dueAt'),
    ),
    p('Please decide how to proceed, for example by refusing the request because the identity could not be verified.'),
  ]),

  appeal_by_reply: operatorMessage(frame, '[DSAR] {{#if appeal.dueAt}}Appeal by reply{{else}}Reply to a refusal, to confirm{{/if}}: {{reference}}', [
    when(
      'appeal.dueAt',
      p('The requester replied to the refusal of request {{reference}}, and the reply was filed as an appeal.'),
      p("A reply to the refusal of request {{reference}} could not be verified as the requester's. No appeal was filed."),
    ),
    facts(fact('Reference', '{{reference}}'), fact('Request ID', '{{requestId}}'), fact('Appeal to be decided by', '{{date appeal.dueAt}}', 'appeal.dueAt')),
    when(
      'appeal.dueAt',
      p("Please decide the appeal by its due date. The reply is on the request's timeline; read it in the mailbox or channel it came to."),
      p('Please read the reply in the mailbox or channel it came to, confirm it with the requester and, if it contests the refusal, file the appeal for them.'),
    ),
  ]),

  message_parked: operatorMessage(frame, '[DSAR] Message parked{{#if parked.eventType}}: {{parked.eventType}}{{/if}} ({{reference}})', [
    p('A message could not be processed and was parked for review. Until it is handled, request {{reference}} may not be up to date.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Topic', '{{parked.topic}}', 'parked.topic'),
      fact('Event type', '{{parked.eventType}}', 'parked.eventType'),
      fact('Consumer', '{{parked.consumer}}', 'parked.consumer'),
      fact('Reason', '{{parked.reason}}', 'parked.reason'),
      fact('Event subject', '{{parked.subject}}', 'parked.subject'),
    ),
    p('Please inspect the message, fix the cause and replay it.'),
  ]),

  daily_digest: operatorMessage(frame, '[DSAR] Daily digest{{#if digest.date}} for {{date digest.date}}{{/if}}: {{count digest.atRisk}} at risk, {{count digest.overdue}} overdue', [
    facts(fact('Date', '{{date digest.date}}', 'digest.date'), fact('At risk', '{{count digest.atRisk}}'), fact('Overdue', '{{count digest.overdue}}'), fact('Digest reference', '{{reference}}')),
    list('digest.overdue', '{{reference}} ({{requestId}}) – due {{date dueAt}} ({{status}})', 'Overdue requests:'),
    list('digest.atRisk', '{{reference}} ({{requestId}}) – due {{date dueAt}} ({{status}})', 'Requests at risk:'),
    when('(or (count digest.atRisk) (count digest.overdue))', [], p('Nothing is at risk or overdue.')),
  ]),

  notification_failed: operatorMessage(frame, '[DSAR] Notification not delivered: {{reference}}', [
    p('A notification could not be delivered.'),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Notification', '{{failure.kind}}', 'failure.kind'),
      fact('Channel', '{{failure.channel}}', 'failure.channel'),
      fact('Destination', '{{mask failure.destination}}', 'failure.destination'),
      fact('Error', '{{failure.error}}', 'failure.error'),
    ),
    p('Please check the channel configuration and, if needed, make sure the person is informed by other means.'),
  ]),
  task_assigned: ownerMessage(frame, `[DSAR] New task{{#if task}} for ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('A data subject request needs work in a data system you own.'),
    facts(
      fact('Task', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('Due by', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Legal deadline of the request', '{{date task.legalDueAt}}', 'task.legalDueAt'),
      fact('Request', '{{reference}}'),
    ),
    when(
      'task.id',
      p(
        `Claim the task; the claim shows the identities to look for and gives you the token for your answer:\n${CLAIM_COMMAND}\nThen, with the claim's token in DSAR_TASK_TOKEN, answer it (complete, not_found, error, action_required or skipped; an erasure with its confirmation):\n${ANSWER_COMMAND}`,
      ),
    ),
    p('Please answer by the due date. If you cannot, answer with the outcome that applies rather than leaving the task open.'),
  ]),

  task_overdue: ownerMessage(frame, `[DSAR] Task overdue{{#if task}} for ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('A task for a data system you own has passed its due date without an answer.'),
    facts(
      fact('Task', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('Was due', '{{date task.dueAt}}', 'task.dueAt'),
      fact('State', '{{task.state}}', 'task.state'),
      fact('Times out', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
      fact('Request', '{{reference}}'),
    ),
    when('task.id', p(`To claim it (if nobody has):\n${CLAIM_COMMAND}\nTo answer it, with your claim's token in DSAR_TASK_TOKEN:\n${ANSWER_COMMAND}`)),
    p('If the system cannot answer, answer with the outcome that applies (not_found, error or action_required). Operators are alerted if the task stays open.'),
  ]),

  task_escalated: operatorMessage(frame, `[DSAR] Data system overdue{{#if task}}: ${SYSTEM_NAME}{{/if}} ({{reference}})`, [
    p("A data system's task for request {{reference}} is overdue; its owner was reminded and has not answered."),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Task', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Action', '{{taskAction task.action}}', 'task.action'),
      fact('State', '{{task.state}}', 'task.state'),
      fact('Was due', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Times out', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
    ),
    p("Please chase the system's owner, or settle the task on the request: retry it, skip it with a reason, or complete it by hand with the evidence."),
  ]),
  duplicate_marked: operatorMessage(frame, '[DSAR] Marked as a duplicate: {{reference}}{{#if duplicate.ofReference}} of {{duplicate.ofReference}}{{/if}}', [
    when(
      'duplicate.ofReference',
      p(
        'Request {{reference}} was marked on receipt as a duplicate of request {{duplicate.ofReference}}: it shares an identity with an open request of the same type and jurisdiction, received within the window of the check.',
      ),
      p('Request {{reference}} was marked on receipt as a duplicate: it shares an identity with an open request of the same type and jurisdiction.'),
    ),
    facts(
      fact('Reference', '{{reference}}'),
      fact('Request ID', '{{requestId}}'),
      fact('Duplicate of', '{{duplicate.ofReference}} ({{duplicate.of}})', 'duplicate.of'),
      fact('Matched on', '{{identityKinds duplicate.matchedKinds}}', 'duplicate.matchedKinds.length'),
      fact('Requests with these identities', '{{duplicate.sameIdentityRequests}}{{#if duplicate.windowDays}} in {{days duplicate.windowDays}}{{/if}}', 'duplicate.sameIdentityRequests'),
      fact('Marked', '{{datetime duplicate.markedAt}}', 'duplicate.markedAt'),
    ),
    p(
      `The request stays open until you decide, with a reason: confirm it (it is refused as a duplicate, and the person is told the reference of the earlier request) or separate it (it is handled as a request of its own):\n${DUPLICATE_RESOLUTION}`,
    ),
  ]),
};
