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

// After "Guten Tag …," a German letter continues in lower case; the first paragraph of each requester message does.
const frame: Frame = {
  lang: 'de',
  greeting: '{{#if recipientName}}Guten Tag {{recipientName}},{{else}}Guten Tag,{{/if}}',
  signOff: ['Mit freundlichen Grüßen', 'Ihr Datenschutzteam'],
  subjectFooter: 'Bitte geben Sie bei jeder Antwort Ihre Referenznummer {{reference}} an.',
  operatorFooter: 'Diese Nachricht enthält keine personenbezogenen Daten. Einzelheiten finden Sie im Antrag unter seiner Referenz.',
  ownerFooter:
    'Sie erhalten diese Nachricht als Verantwortliche(r) eines Datensystems, das für Betroffenenanfragen registriert ist. Sie enthält keine personenbezogenen Daten: Die zu suchenden Kennungen erhalten Sie mit der Übernahme der Aufgabe.',
};

const COMPLAINT = 'das Recht, sich bei einer Datenschutz-Aufsichtsbehörde oder einer anderen zuständigen Behörde zu beschweren und gerichtlichen Rechtsschutz in Anspruch zu nehmen.';

export const de: Record<NotificationKind, MessageTemplates> = {
  request_acknowledged: subjectMessage(frame, 'Eingangsbestätigung zu Ihrem Antrag {{reference}}', [
    p('vielen Dank für Ihre Nachricht. Wir haben Ihren Antrag erhalten und bearbeiten ihn nach den geltenden Datenschutzvorschriften.'),
    facts(
      fact('Referenznummer', '{{reference}}'),
      fact('Art des Antrags', '{{requestType requestType}}', 'requestType'),
      fact('Eingegangen am', '{{date receivedAt}}', 'receivedAt'),
      fact('Antwort spätestens bis', '{{date dueAt}}', 'dueAt'),
    ),
    quote('message'),
    when('dueAt', p('Wir antworten Ihnen spätestens bis zum {{date dueAt}}. Sollten wir mehr Zeit benötigen, teilen wir Ihnen dies vorher mit und nennen Ihnen die Gründe.')),
    p('Möglicherweise müssen wir Ihre Identität bestätigen, bevor wir Ihren Antrag bearbeiten können; in diesem Fall melden wir uns bei Ihnen.'),
  ]),

  clarification_requested: subjectMessage(frame, 'Ihr Antrag {{reference}}: Wir benötigen weitere Angaben', [
    p('um Ihren Antrag {{reference}} bearbeiten zu können, benötigen wir noch einige Angaben von Ihnen.'),
    quote('message', 'Unsere Frage:'),
    p(
      'Bitte antworten Sie auf diese Nachricht und senden Sie uns die erbetenen Angaben. Bis Ihre Antwort bei uns eingeht, kann die Frist für die Bearbeitung Ihres Antrags ruhen; sie läuft weiter, sobald wir von Ihnen hören.',
    ),
  ]),

  verification_requested: subjectMessage(frame, 'Ihr Antrag {{reference}}: Bitte bestätigen Sie Ihre Identität', [
    p('zum Schutz Ihrer personenbezogenen Daten müssen wir Ihre Identität bestätigen, bevor wir Ihren Antrag {{reference}} bearbeiten können.'),
    when('verification.methods.length', p('Dafür stehen Ihnen folgende Wege offen: {{methods verification.methods}}.')),
    when(
      'verification.expiresAt',
      p(
        'Bitte schließen Sie die Bestätigung bis zum {{datetime verification.expiresAt}} ab. Können wir Ihre Identität bis dahin nicht bestätigen, können wir Ihren Antrag möglicherweise nicht bearbeiten.',
      ),
    ),
    p('Die Angaben, die Sie uns dafür machen, verwenden wir ausschließlich, um Ihre Identität zu bestätigen.'),
  ]),

  verification_reminder: subjectMessage(frame, 'Erinnerung: Bitte bestätigen Sie Ihre Identität (Antrag {{reference}})', [
    p('wir warten noch auf die Bestätigung Ihrer Identität zu Ihrem Antrag {{reference}}. Erst danach können wir Ihren Antrag bearbeiten.'),
    when('verification.methods.length', p('Dafür stehen Ihnen folgende Wege offen: {{methods verification.methods}}.')),
    when('verification.expiresAt', p('Die Bestätigung ist bis zum {{datetime verification.expiresAt}} möglich. Danach können wir Ihren Antrag möglicherweise nicht mehr bearbeiten.')),
    p('Falls Sie die Bestätigung bereits abgeschlossen haben, betrachten Sie diese Erinnerung bitte als gegenstandslos.'),
  ]),

  deadline_extended: subjectMessage(frame, 'Ihr Antrag {{reference}}: Verlängerung der Bearbeitungsfrist', [
    p('wir benötigen mehr Zeit, um Ihren Antrag {{reference}} zu beantworten. Wie gesetzlich vorgeschrieben, informieren wir Sie hiermit über die Fristverlängerung, ihre Dauer und die Gründe dafür.'),
    facts(
      fact('Referenznummer', '{{reference}}'),
      fact('Verlängerung um', '{{extensionLength extension}}', 'extension'),
      fact('Bisherige Frist', '{{date extension.previousDueAt}}', 'extension.previousDueAt'),
      fact('Neue Frist', `{{date ${NEW_DUE}}}`, NEW_DUE),
    ),
    quote('extension.reason', 'Gründe für die Verlängerung:'),
    when(NEW_DUE, p(`Wir werden Ihren Antrag spätestens bis zum {{date ${NEW_DUE}}} beantworten.`)),
    p('Wenn Sie Fragen zur Verlängerung haben, antworten Sie bitte einfach auf diese Nachricht.'),
  ]),

  request_refused: subjectMessage(frame, 'Ihr Antrag {{reference}}: Unsere Entscheidung', [
    p(`wir haben Ihren Antrag {{reference}}${TYPE_SUFFIX} sorgfältig geprüft. Leider können wir ihm nicht nachkommen.`),
    when('refusal.reason', facts(fact('Grund', '{{refusalReason refusal.reason}}'))),
    quote('message'),
    when(
      'refusal.appealAvailable',
      p(
        `Wenn Sie mit dieser Entscheidung nicht einverstanden sind, können Sie bei uns Einspruch einlegen: Antworten Sie dazu einfach auf diese Nachricht und geben Sie Ihre Referenznummer {{reference}} an. Außerdem haben Sie ${COMPLAINT}`,
      ),
      p(`Wenn Sie mit dieser Entscheidung nicht einverstanden sind, haben Sie ${COMPLAINT}`),
    ),
  ]),

  request_fulfilled: subjectMessage(frame, 'Ihr Antrag {{reference}} ist abgeschlossen', [
    p(`wir haben Ihren Antrag {{reference}}${TYPE_SUFFIX} abschließend bearbeitet.`),
    p('Wenn Sie Fragen haben oder mit der Bearbeitung nicht zufrieden sind, antworten Sie bitte auf diese Nachricht.'),
  ]),

  delivery_prepared: subjectMessage(frame, 'Ihr Antrag {{reference}}: Ihre Daten stehen bereit', [
    p('die Daten, die wir zu Ihrem Antrag {{reference}} zusammengestellt haben, stehen für Sie bereit.'),
    when(
      BY_EMAIL,
      [
        when('delivery.link', [p('Um sie herunterzuladen, öffnen Sie diesen Link:'), link('delivery.link')], p('Wir senden Ihnen einen Link, über den Sie die Daten herunterladen können.')),
        when('delivery.expiresAt', p('Der Link ist bis zum {{datetime delivery.expiresAt}} gültig.')),
        p(
          'Der Link lässt sich nur einmal und nur in einem Browser öffnen: Öffnen Sie ihn in dem Browser, in dem Sie Ihre Dateien speichern möchten, und laden Sie dort alle herunter. Zum Öffnen der Seite benötigen Sie einen Einmalcode, den wir Ihnen in einer separaten E-Mail senden.',
        ),
        p(
          'Bitte leiten Sie diese E-Mail nicht weiter und geben Sie den Link an niemanden weiter. Ist der Link abgelaufen oder funktioniert er nicht mehr, wenden Sie sich an uns; wir senden Ihnen dann einen neuen.',
        ),
      ],
      [
        when('delivery.channel', p('Sie erhalten sie {{channel delivery.channel}}.'), p('Wir senden Ihnen eine Anleitung, wie Sie die Daten abrufen können.')),
        when(
          '(eq delivery.level "standard")',
          p('Möglicherweise werden Sie gebeten, sich anzumelden oder Ihre Identität erneut zu bestätigen, bevor Sie die Daten öffnen können.'),
          p('Zu Ihrem Schutz benötigen Sie zum Öffnen einen Einmalcode, den wir Ihnen gesondert zusenden.'),
        ),
        when(
          'delivery.expiresAt',
          p('Der Link ist bis zum {{datetime delivery.expiresAt}} gültig. Danach wenden Sie sich bitte an uns, damit wir Ihnen die Daten erneut bereitstellen.'),
          p('Der Link ist nur für begrenzte Zeit gültig. Ist er abgelaufen, wenden Sie sich bitte an uns, damit wir Ihnen die Daten erneut bereitstellen.'),
        ),
        p('Bitte geben Sie den Link und den Code an niemanden weiter. Wir werden Sie niemals nach Ihrem Passwort fragen.'),
      ],
    ),
  ]),

  delivery_code: subjectMessage(frame, 'Ihr Antrag {{reference}}: Ihr Einmalcode', [
    when('delivery.code', [p('Ihr Einmalcode zum Herunterladen Ihrer Daten lautet:'), code('delivery.code')]),
    p('Geben Sie den Code auf der Seite ein, die der Link aus unserer anderen E-Mail zu diesem Antrag öffnet.'),
    when('delivery.expiresAt', p('Der Code ist bis zum {{datetime delivery.expiresAt}} gültig und funktioniert nur zusammen mit diesem Link.')),
    p('Geben Sie den Code niemals an andere weiter, auch nicht an uns. Wir werden Sie niemals danach fragen, weder am Telefon noch per E-Mail noch auf anderem Weg.'),
    p('Wenn Sie Ihre Daten nicht angefordert haben, verwenden Sie den Code nicht und teilen Sie uns dies bitte umgehend mit, unter Angabe Ihrer Referenznummer {{reference}}, aber ohne den Code.'),
  ]),

  appeal_received: subjectMessage(frame, 'Ihr Einspruch zum Antrag {{reference}} ist eingegangen', [
    p('wir haben Ihren Einspruch zu Ihrem Antrag {{reference}} erhalten.'),
    when(
      'appeal.dueAt',
      p('Wir entscheiden spätestens bis zum {{date appeal.dueAt}} darüber und teilen Ihnen das Ergebnis und die Gründe mit.'),
      p('Sobald wir entschieden haben, teilen wir Ihnen das Ergebnis und die Gründe mit.'),
    ),
  ]),

  appeal_decided: subjectMessage(frame, 'Ihr Einspruch zum Antrag {{reference}}: Unsere Entscheidung', [
    p('wir haben über Ihren Einspruch zu Ihrem Antrag {{reference}} entschieden.'),
    when('appeal.decision', facts(fact('Entscheidung', '{{appealDecision appeal.decision}}'))),
    quote('message'),
    when(
      'appeal.reopened',
      p('Wir haben Ihren Antrag wieder aufgenommen und bearbeiten ihn erneut.{{#if dueAt}} Wir antworten Ihnen spätestens bis zum {{date dueAt}}.{{/if}}'),
      p(`Wenn Sie mit dieser Entscheidung nicht einverstanden sind, haben Sie ${COMPLAINT}`),
    ),
  ]),

  request_created: operatorMessage(frame, `[DSAR] Neuer Antrag {{reference}}${TYPE_SUFFIX}`, [
    p('Ein neuer Antrag ist eingegangen.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Art', '{{requestType requestType}}', 'requestType'),
      fact('Rechtsordnung', JURISDICTION, '(or jurisdiction jurisdictionName)'),
      fact('Eingegangen am', '{{date receivedAt}}', 'receivedAt'),
      fact('Fällig am', '{{date dueAt}}', 'dueAt'),
    ),
  ]),

  deadline_approaching: operatorMessage(frame, '[DSAR] Frist läuft bald ab: {{reference}}', [
    p('Eine Frist für den Antrag {{reference}} läuft bald ab.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Frist', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Verbleibende Tage', '{{deadline.thresholdDays}}', '(present deadline.thresholdDays)'),
      fact('Fällig am', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Bitte sorgen Sie dafür, dass der Antrag rechtzeitig bearbeitet wird.'),
  ]),

  deadline_breached: operatorMessage(frame, '[DSAR] Frist versäumt: {{reference}}', [
    p('Eine Frist für den Antrag {{reference}} ist abgelaufen, ohne dass die erforderliche Bearbeitung erfolgt ist.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Frist', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Fällig war', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Bitte bearbeiten Sie den Antrag unverzüglich und dokumentieren Sie den Grund für die Verzögerung.'),
  ]),

  verification_expired: operatorMessage(frame, '[DSAR] Identitätsprüfung abgelaufen: {{reference}}', [
    p('Die Identitätsprüfung zum Antrag {{reference}} ist abgelaufen, ohne abgeschlossen worden zu sein.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Abgelaufen am', '{{datetime verification.expiresAt}}', 'verification.expiresAt'),
      fact('Angebotene Verfahren', '{{methods verification.methods}}', 'verification.methods.length'),
      fact('Antrag fällig am', '{{date dueAt}}', 'dueAt'),
    ),
    p('Bitte entscheiden Sie über das weitere Vorgehen, etwa die Ablehnung des Antrags, weil die Identität nicht bestätigt werden konnte.'),
  ]),

  appeal_by_reply: operatorMessage(frame, '[DSAR] {{#if appeal.dueAt}}Einspruch per Antwort{{else}}Antwort auf eine Ablehnung, zu bestätigen{{/if}}: {{reference}}', [
    when(
      'appeal.dueAt',
      p('Die antragstellende Person hat auf die Ablehnung des Antrags {{reference}} geantwortet; die Antwort wurde als Einspruch erfasst.'),
      p('Eine Antwort auf die Ablehnung des Antrags {{reference}} konnte nicht als Antwort der antragstellenden Person bestätigt werden. Es wurde kein Einspruch erfasst.'),
    ),
    facts(fact('Referenz', '{{reference}}'), fact('Antrags-ID', '{{requestId}}'), fact('Einspruch zu entscheiden bis', '{{date appeal.dueAt}}', 'appeal.dueAt')),
    when(
      'appeal.dueAt',
      p('Bitte entscheiden Sie über den Einspruch bis zu seiner Frist. Die Antwort steht in der Chronik des Antrags; lesen Sie sie im Postfach oder Kanal, in dem sie einging.'),
      p(
        'Bitte lesen Sie die Antwort im Postfach oder Kanal, in dem sie einging, klären Sie sie mit der antragstellenden Person und erfassen Sie den Einspruch für sie, wenn sie der Ablehnung widerspricht.',
      ),
    ),
  ]),

  message_parked: operatorMessage(frame, '[DSAR] Nachricht zurückgestellt{{#if parked.eventType}}: {{parked.eventType}}{{/if}} ({{reference}})', [
    p('Eine Nachricht konnte nicht verarbeitet werden und wurde zur Prüfung zurückgestellt. Bis sie bearbeitet ist, ist der Antrag {{reference}} möglicherweise nicht auf dem aktuellen Stand.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Topic', '{{parked.topic}}', 'parked.topic'),
      fact('Ereignistyp', '{{parked.eventType}}', 'parked.eventType'),
      fact('Consumer', '{{parked.consumer}}', 'parked.consumer'),
      fact('Grund', '{{parked.reason}}', 'parked.reason'),
      fact('Subject des Ereignisses', '{{parked.subject}}', 'parked.subject'),
    ),
    p('Bitte prüfen Sie die Nachricht, beheben Sie die Ursache und spielen Sie sie erneut ein.'),
  ]),

  daily_digest: operatorMessage(frame, '[DSAR] Tagesübersicht{{#if digest.date}} vom {{date digest.date}}{{/if}}: {{count digest.atRisk}} gefährdet, {{count digest.overdue}} überfällig', [
    facts(
      fact('Datum', '{{date digest.date}}', 'digest.date'),
      fact('Gefährdet', '{{count digest.atRisk}}'),
      fact('Überfällig', '{{count digest.overdue}}'),
      fact('Referenz der Übersicht', '{{reference}}'),
    ),
    list('digest.overdue', '{{reference}} ({{requestId}}) – fällig am {{date dueAt}} ({{status}})', 'Überfällige Anträge:'),
    list('digest.atRisk', '{{reference}} ({{requestId}}) – fällig am {{date dueAt}} ({{status}})', 'Gefährdete Anträge:'),
    when('(or (count digest.atRisk) (count digest.overdue))', [], p('Es gibt keine gefährdeten oder überfälligen Anträge.')),
  ]),

  notification_failed: operatorMessage(frame, '[DSAR] Benachrichtigung nicht zugestellt: {{reference}}', [
    p('Eine Benachrichtigung konnte nicht zugestellt werden.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Benachrichtigung', '{{failure.kind}}', 'failure.kind'),
      fact('Kanal', '{{failure.channel}}', 'failure.channel'),
      fact('Empfänger', '{{mask failure.destination}}', 'failure.destination'),
      fact('Fehler', '{{failure.error}}', 'failure.error'),
    ),
    p('Bitte prüfen Sie die Kanaleinstellungen und sorgen Sie bei Bedarf dafür, dass die betroffene Person auf anderem Weg informiert wird.'),
  ]),
  task_assigned: ownerMessage(frame, `[DSAR] Neue Aufgabe{{#if task}} für ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Ein Antrag einer betroffenen Person erfordert Arbeit in einem Datensystem, für das Sie verantwortlich sind.'),
    facts(
      fact('Aufgabe', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Tätigkeit', '{{taskAction task.action}}', 'task.action'),
      fact('Fällig bis', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Gesetzliche Frist des Antrags', '{{date task.legalDueAt}}', 'task.legalDueAt'),
      fact('Antrag', '{{reference}}'),
    ),
    when(
      'task.id',
      p(
        `Übernehmen Sie die Aufgabe; die Übernahme zeigt die zu suchenden Kennungen und gibt Ihnen das Token für Ihre Antwort:\n${CLAIM_COMMAND}\nBeantworten Sie sie dann, mit dem Token der Übernahme in DSAR_TASK_TOKEN (complete, not_found, error, action_required oder skipped; eine Löschung mit ihrer Bestätigung):\n${ANSWER_COMMAND}`,
      ),
    ),
    p('Bitte antworten Sie bis zum Fälligkeitsdatum. Wenn das nicht möglich ist, antworten Sie mit dem zutreffenden Ergebnis, statt die Aufgabe offen zu lassen.'),
  ]),

  task_overdue: ownerMessage(frame, `[DSAR] Aufgabe überfällig{{#if task}} für ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Eine Aufgabe für ein Datensystem, für das Sie verantwortlich sind, ist ohne Antwort überfällig.'),
    facts(
      fact('Aufgabe', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Tätigkeit', '{{taskAction task.action}}', 'task.action'),
      fact('War fällig am', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Status', '{{task.state}}', 'task.state'),
      fact('Zeitüberschreitung am', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
      fact('Antrag', '{{reference}}'),
    ),
    when('task.id', p(`Zum Übernehmen (falls noch niemand sie übernommen hat):\n${CLAIM_COMMAND}\nZum Beantworten, mit dem Token Ihrer Übernahme in DSAR_TASK_TOKEN:\n${ANSWER_COMMAND}`)),
    p('Kann das System nicht antworten, antworten Sie mit dem zutreffenden Ergebnis (not_found, error oder action_required). Bleibt die Aufgabe offen, werden die Bearbeiter alarmiert.'),
  ]),

  task_escalated: operatorMessage(frame, `[DSAR] Datensystem überfällig{{#if task}}: ${SYSTEM_NAME}{{/if}} ({{reference}})`, [
    p('Die Aufgabe eines Datensystems zum Antrag {{reference}} ist überfällig; die verantwortliche Stelle wurde erinnert und hat nicht geantwortet.'),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Aufgabe', '{{task.id}}', 'task.id'),
      fact('System', SYSTEM, 'task.systemKey'),
      fact('Tätigkeit', '{{taskAction task.action}}', 'task.action'),
      fact('Status', '{{task.state}}', 'task.state'),
      fact('War fällig am', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Zeitüberschreitung am', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
    ),
    p('Bitte haken Sie bei der verantwortlichen Stelle nach oder erledigen Sie die Aufgabe am Antrag: erneut versuchen, mit Begründung überspringen oder von Hand mit Nachweis abschließen.'),
  ]),
  duplicate_marked: operatorMessage(frame, '[DSAR] Als Duplikat markiert: {{reference}}{{#if duplicate.ofReference}} zu {{duplicate.ofReference}}{{/if}}', [
    when(
      'duplicate.ofReference',
      p(
        'Der Antrag {{reference}} wurde beim Eingang als Duplikat des Antrags {{duplicate.ofReference}} markiert: Er hat eine Identität mit einem offenen Antrag derselben Art und Rechtsordnung gemeinsam, der im Zeitraum der Prüfung eingegangen ist.',
      ),
      p('Der Antrag {{reference}} wurde beim Eingang als Duplikat markiert: Er hat eine Identität mit einem offenen Antrag derselben Art und Rechtsordnung gemeinsam.'),
    ),
    facts(
      fact('Referenz', '{{reference}}'),
      fact('Antrags-ID', '{{requestId}}'),
      fact('Duplikat von', '{{duplicate.ofReference}} ({{duplicate.of}})', 'duplicate.of'),
      fact('Übereinstimmung bei', '{{identityKinds duplicate.matchedKinds}}', 'duplicate.matchedKinds.length'),
      fact('Anträge mit diesen Identitäten', '{{duplicate.sameIdentityRequests}}{{#if duplicate.windowDays}} (Zeitraum: {{days duplicate.windowDays}}){{/if}}', 'duplicate.sameIdentityRequests'),
      fact('Markiert am', '{{datetime duplicate.markedAt}}', 'duplicate.markedAt'),
    ),
    p(
      `Der Antrag bleibt offen, bis Sie mit Begründung entscheiden: bestätigen (er wird als Duplikat abgelehnt, und die Person erfährt die Referenz des früheren Antrags) oder trennen (er wird als eigener Antrag bearbeitet):\n${DUPLICATE_RESOLUTION}`,
    ),
  ]),
};
