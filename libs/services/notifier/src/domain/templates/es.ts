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

// A Spanish letter opens with a colon ("Estimado/a …:") and continues with a capital.
const frame: Frame = {
  lang: 'es',
  greeting: '{{#if recipientName}}Estimado/a {{recipientName}}:{{else}}Estimado/a señor/a:{{/if}}',
  signOff: ['Atentamente,', 'El equipo de protección de datos'],
  subjectFooter: 'Le rogamos que indique su referencia {{reference}} en cualquier respuesta.',
  operatorFooter: 'Este mensaje no contiene datos personales. Consulte la solicitud mediante su referencia para ver los detalles.',
  ownerFooter:
    'Recibe este mensaje como responsable de un sistema de datos registrado para las solicitudes de los interesados. No contiene datos personales: los identificadores que buscar llegan con la asignación de la tarea.',
};

const COMPLAINT = 'derecho a presentar una reclamación ante una autoridad de control de protección de datos u otra autoridad competente, así como a ejercer acciones judiciales.';

export const es: Record<NotificationKind, MessageTemplates> = {
  request_acknowledged: subjectMessage(frame, 'Hemos recibido su solicitud {{reference}}', [
    p('Le agradecemos que se haya puesto en contacto con nosotros. Hemos recibido su solicitud y la tramitaremos conforme a la normativa de protección de datos aplicable.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('Tipo de solicitud', '{{requestType requestType}}', 'requestType'),
      fact('Recibida el', '{{date receivedAt}}', 'receivedAt'),
      fact('Respuesta a más tardar el', '{{date dueAt}}', 'dueAt'),
    ),
    quote('message'),
    when('dueAt', p('Le responderemos a más tardar el {{date dueAt}}. Si necesitamos más tiempo, se lo comunicaremos antes de esa fecha y le explicaremos los motivos.')),
    p('Es posible que necesitemos verificar su identidad antes de tramitar su solicitud; en ese caso, nos pondremos en contacto con usted.'),
  ]),

  clarification_requested: subjectMessage(frame, 'Su solicitud {{reference}}: necesitamos más información', [
    p('Para poder tramitar su solicitud {{reference}}, necesitamos que nos facilite información adicional.'),
    quote('message', 'Nuestra pregunta:'),
    p(
      'Le rogamos que responda a este mensaje con la información solicitada. Hasta que recibamos su respuesta, el plazo para atender su solicitud puede quedar en suspenso; se reanudará en cuanto tengamos noticias suyas.',
    ),
  ]),

  verification_requested: subjectMessage(frame, 'Su solicitud {{reference}}: confirme su identidad', [
    p('Para proteger sus datos personales, necesitamos verificar su identidad antes de poder atender su solicitud {{reference}}.'),
    when('verification.methods.length', p('Puede hacerlo mediante {{methods verification.methods}}.')),
    when(
      'verification.expiresAt',
      p(
        'Le rogamos que complete la verificación antes del {{datetime verification.expiresAt}}. Si no podemos verificar su identidad antes de esa fecha, es posible que no podamos atender su solicitud.',
      ),
    ),
    p('Utilizaremos la información que nos facilite con este fin únicamente para verificar su identidad.'),
  ]),

  verification_reminder: subjectMessage(frame, 'Recordatorio: confirme su identidad (solicitud {{reference}})', [
    p('Todavía estamos a la espera de que confirme su identidad para su solicitud {{reference}}. No podremos atenderla hasta que lo haga.'),
    when('verification.methods.length', p('Puede hacerlo mediante {{methods verification.methods}}.')),
    when('verification.expiresAt', p('La verificación estará disponible hasta el {{datetime verification.expiresAt}}. Después de esa fecha, es posible que no podamos atender su solicitud.')),
    p('Si ya ha completado la verificación, no tenga en cuenta este recordatorio.'),
  ]),

  deadline_extended: subjectMessage(frame, 'Su solicitud {{reference}}: ampliación del plazo de respuesta', [
    p('Necesitamos más tiempo para responder a su solicitud {{reference}}. Tal como exige la ley, le informamos de la ampliación del plazo, de su duración y de sus motivos.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('Ampliación', '{{extensionLength extension}}', 'extension'),
      fact('Plazo anterior', '{{date extension.previousDueAt}}', 'extension.previousDueAt'),
      fact('Nuevo plazo', `{{date ${NEW_DUE}}}`, NEW_DUE),
    ),
    quote('extension.reason', 'Motivos de la ampliación:'),
    when(NEW_DUE, p(`Responderemos a su solicitud a más tardar el {{date ${NEW_DUE}}}.`)),
    p('Si tiene alguna pregunta sobre la ampliación, basta con que responda a este mensaje.'),
  ]),

  request_refused: subjectMessage(frame, 'Su solicitud {{reference}}: nuestra decisión', [
    p(`Hemos examinado detenidamente su solicitud {{reference}}${TYPE_SUFFIX}. Lamentablemente, no podemos atenderla.`),
    when('refusal.reason', facts(fact('Motivo', '{{refusalReason refusal.reason}}'))),
    quote('message'),
    when(
      'refusal.appealAvailable',
      p(`Si no está de acuerdo con esta decisión, tiene derecho a apelarla ante nosotros: basta con que responda a este mensaje indicando su referencia {{reference}}. Asimismo, tiene ${COMPLAINT}`),
      p(`Si no está de acuerdo con esta decisión, tiene ${COMPLAINT}`),
    ),
  ]),

  request_fulfilled: subjectMessage(frame, 'Su solicitud {{reference}} se ha completado', [
    p(`Hemos completado la tramitación de su solicitud {{reference}}${TYPE_SUFFIX}.`),
    p('Si tiene alguna pregunta o no está satisfecho/a con la gestión de su solicitud, responda a este mensaje.'),
  ]),

  delivery_prepared: subjectMessage(frame, 'Su solicitud {{reference}}: sus datos están listos', [
    p('Los datos que hemos preparado en respuesta a su solicitud {{reference}} ya están listos.'),
    when(
      BY_EMAIL,
      [
        when('delivery.link', [p('Para descargarlos, abra este enlace:'), link('delivery.link')], p('Le enviaremos un enlace para descargarlos.')),
        when('delivery.expiresAt', p('El enlace es válido hasta el {{datetime delivery.expiresAt}}.')),
        p(
          'El enlace solo puede abrirse una vez y en un único navegador: ábralo en el navegador en el que quiera guardar sus archivos y descárguelos todos allí. Para abrir la página necesitará un código de un solo uso, que le enviamos en un correo electrónico aparte.',
        ),
        p('No reenvíe este correo ni comparta el enlace con nadie. Si el enlace ha caducado o ya no funciona, póngase en contacto con nosotros y le enviaremos uno nuevo.'),
      ],
      [
        when('delivery.channel', p('Los recibirá {{channel delivery.channel}}.'), p('Le enviaremos instrucciones para acceder a ellos.')),
        when(
          '(eq delivery.level "standard")',
          p('Es posible que se le pida que inicie sesión o que vuelva a confirmar su identidad antes de poder abrirlos.'),
          p('Por su seguridad, para abrirlos necesitará un código de un solo uso que le enviaremos por separado.'),
        ),
        when(
          'delivery.expiresAt',
          p('El enlace es válido hasta el {{datetime delivery.expiresAt}}. Después de esa fecha, póngase en contacto con nosotros y volveremos a poner sus datos a su disposición.'),
          p('El enlace solo es válido durante un tiempo limitado. Si ha caducado, póngase en contacto con nosotros y volveremos a poner sus datos a su disposición.'),
        ),
        p('No reenvíe el enlace ni el código a nadie. Nunca le pediremos su contraseña.'),
      ],
    ),
  ]),

  delivery_code: subjectMessage(frame, 'Su solicitud {{reference}}: su código de un solo uso', [
    when('delivery.code', [p('Su código de un solo uso para descargar sus datos es:'), code('delivery.code')]),
    p('Introduzca el código en la página que abre el enlace de nuestro otro correo sobre esta solicitud.'),
    when('delivery.expiresAt', p('El código es válido hasta el {{datetime delivery.expiresAt}} y solo funciona con ese enlace.')),
    p('No comparta nunca este código con nadie, ni siquiera con nosotros. Nunca se lo pediremos, ni por teléfono, ni por correo electrónico, ni de ninguna otra forma.'),
    p('Si usted no ha pedido sus datos, no utilice el código e infórmenos cuanto antes indicando su referencia {{reference}}, pero no el código.'),
  ]),

  appeal_received: subjectMessage(frame, 'Hemos recibido su apelación sobre la solicitud {{reference}}', [
    p('Hemos recibido su apelación relativa a su solicitud {{reference}}.'),
    when(
      'appeal.dueAt',
      p('La resolveremos a más tardar el {{date appeal.dueAt}} y le comunicaremos la decisión y sus motivos.'),
      p('Le comunicaremos la decisión y sus motivos en cuanto la hayamos adoptado.'),
    ),
  ]),

  appeal_decided: subjectMessage(frame, 'Su apelación sobre la solicitud {{reference}}: nuestra decisión', [
    p('Hemos resuelto su apelación relativa a su solicitud {{reference}}.'),
    when('appeal.decision', facts(fact('Decisión', '{{appealDecision appeal.decision}}'))),
    quote('message'),
    when(
      'appeal.reopened',
      p('Hemos reabierto su solicitud y volveremos a tramitarla.{{#if dueAt}} Le responderemos a más tardar el {{date dueAt}}.{{/if}}'),
      p(`Si no está de acuerdo con esta decisión, tiene ${COMPLAINT}`),
    ),
  ]),

  request_created: operatorMessage(frame, `[DSAR] Nueva solicitud {{reference}}${TYPE_SUFFIX}`, [
    p('Se ha recibido una nueva solicitud.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Tipo', '{{requestType requestType}}', 'requestType'),
      fact('Jurisdicción', JURISDICTION, '(or jurisdiction jurisdictionName)'),
      fact('Recibida el', '{{date receivedAt}}', 'receivedAt'),
      fact('Vence el', '{{date dueAt}}', 'dueAt'),
    ),
  ]),

  deadline_approaching: operatorMessage(frame, '[DSAR] Plazo próximo a vencer: {{reference}}', [
    p('Un plazo de la solicitud {{reference}} está próximo a vencer.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Plazo', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Días restantes', '{{deadline.thresholdDays}}', '(present deadline.thresholdDays)'),
      fact('Vence el', '{{date dueAt}}', 'dueAt'),
      fact('Estado', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Asegúrese de que la solicitud se tramite a tiempo.'),
  ]),

  deadline_breached: operatorMessage(frame, '[DSAR] Plazo incumplido: {{reference}}', [
    p('Ha vencido un plazo de la solicitud {{reference}} sin que se haya realizado la acción necesaria.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Plazo', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Venció el', '{{date dueAt}}', 'dueAt'),
      fact('Estado', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Tramite la solicitud sin más demora y deje constancia del motivo del retraso.'),
  ]),

  verification_expired: operatorMessage(frame, '[DSAR] Verificación de identidad caducada: {{reference}}', [
    p('La verificación de identidad de la solicitud {{reference}} ha caducado sin completarse.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Caducó el', '{{datetime verification.expiresAt}}', 'verification.expiresAt'),
      fact('Métodos ofrecidos', '{{methods verification.methods}}', 'verification.methods.length'),
      fact('La solicitud vence el', '{{date dueAt}}', 'dueAt'),
    ),
    p('Decida cómo continuar con la solicitud; por ejemplo, denegarla porque no se ha podido verificar la identidad.'),
  ]),

  appeal_by_reply: operatorMessage(frame, '[DSAR] {{#if appeal.dueAt}}Apelación por respuesta{{else}}Respuesta a una denegación, por confirmar{{/if}}: {{reference}}', [
    when(
      'appeal.dueAt',
      p('La persona solicitante respondió a la denegación de la solicitud {{reference}} y la respuesta se registró como apelación.'),
      p('No se pudo confirmar que una respuesta a la denegación de la solicitud {{reference}} sea de la persona solicitante. No se registró ninguna apelación.'),
    ),
    facts(fact('Referencia', '{{reference}}'), fact('ID de la solicitud', '{{requestId}}'), fact('Resolver la apelación antes del', '{{date appeal.dueAt}}', 'appeal.dueAt')),
    when(
      'appeal.dueAt',
      p('Resuelva la apelación antes de su vencimiento. La respuesta figura en el historial de la solicitud; léala en el buzón o canal por el que llegó.'),
      p('Lea la respuesta en el buzón o canal por el que llegó, confírmela con la persona solicitante y, si impugna la denegación, registre la apelación en su nombre.'),
    ),
  ]),

  message_parked: operatorMessage(frame, '[DSAR] Mensaje apartado{{#if parked.eventType}}: {{parked.eventType}}{{/if}} ({{reference}})', [
    p('Un mensaje no se ha podido procesar y se ha apartado para su revisión. Mientras no se resuelva, es posible que la solicitud {{reference}} no esté actualizada.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('Topic', '{{parked.topic}}', 'parked.topic'),
      fact('Tipo de evento', '{{parked.eventType}}', 'parked.eventType'),
      fact('Consumidor', '{{parked.consumer}}', 'parked.consumer'),
      fact('Motivo', '{{parked.reason}}', 'parked.reason'),
      fact('Sujeto del evento', '{{parked.subject}}', 'parked.subject'),
    ),
    p('Revise el mensaje, corrija la causa y vuelva a procesarlo.'),
  ]),

  daily_digest: operatorMessage(frame, '[DSAR] Resumen diario{{#if digest.date}} del {{date digest.date}}{{/if}}: {{count digest.atRisk}} en riesgo, {{count digest.overdue}} vencidas', [
    facts(
      fact('Fecha', '{{date digest.date}}', 'digest.date'),
      fact('En riesgo', '{{count digest.atRisk}}'),
      fact('Vencidas', '{{count digest.overdue}}'),
      fact('Referencia del resumen', '{{reference}}'),
    ),
    list('digest.overdue', '{{reference}} ({{requestId}}) – plazo: {{date dueAt}} ({{status}})', 'Solicitudes vencidas:'),
    list('digest.atRisk', '{{reference}} ({{requestId}}) – plazo: {{date dueAt}} ({{status}})', 'Solicitudes en riesgo:'),
    when('(or (count digest.atRisk) (count digest.overdue))', [], p('No hay solicitudes en riesgo ni vencidas.')),
  ]),

  notification_failed: operatorMessage(frame, '[DSAR] Notificación no entregada: {{reference}}', [
    p('No se ha podido entregar una notificación.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Notificación', '{{failure.kind}}', 'failure.kind'),
      fact('Canal', '{{failure.channel}}', 'failure.channel'),
      fact('Destinatario', '{{mask failure.destination}}', 'failure.destination'),
      fact('Error', '{{failure.error}}', 'failure.error'),
    ),
    p('Revise la configuración del canal y, si es necesario, asegúrese de que la persona interesada reciba la información por otra vía.'),
  ]),
  task_assigned: ownerMessage(frame, `[DSAR] Nueva tarea{{#if task}} para ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Una solicitud de un interesado requiere trabajo en un sistema de datos del que usted es responsable.'),
    facts(
      fact('Tarea', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Acción', '{{taskAction task.action}}', 'task.action'),
      fact('Vence el', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Plazo legal de la solicitud', '{{date task.legalDueAt}}', 'task.legalDueAt'),
      fact('Solicitud', '{{reference}}'),
    ),
    when(
      'task.id',
      p(
        `Asúmase la tarea; al asumirla verá los identificadores que buscar y recibirá el token para su respuesta:\n${CLAIM_COMMAND}\nDespués respóndala, con el token de la asignación en DSAR_TASK_TOKEN (complete, not_found, error, action_required o skipped; una supresión con su confirmación):\n${ANSWER_COMMAND}`,
      ),
    ),
    p('Responda antes del vencimiento. Si no es posible, responda con el resultado que corresponda en lugar de dejar la tarea abierta.'),
  ]),

  task_overdue: ownerMessage(frame, `[DSAR] Tarea vencida{{#if task}} para ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Una tarea de un sistema de datos del que usted es responsable ha vencido sin respuesta.'),
    facts(
      fact('Tarea', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Acción', '{{taskAction task.action}}', 'task.action'),
      fact('Vencía el', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Estado', '{{task.state}}', 'task.state'),
      fact('Caduca el', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
      fact('Solicitud', '{{reference}}'),
    ),
    when('task.id', p(`Para asumirla (si nadie lo ha hecho):\n${CLAIM_COMMAND}\nPara responderla, con el token de su asignación en DSAR_TASK_TOKEN:\n${ANSWER_COMMAND}`)),
    p('Si el sistema no puede responder, responda con el resultado que corresponda (not_found, error o action_required). Si la tarea sigue abierta, se avisará a los operadores.'),
  ]),

  task_escalated: operatorMessage(frame, `[DSAR] Sistema de datos con retraso{{#if task}}: ${SYSTEM_NAME}{{/if}} ({{reference}})`, [
    p('La tarea de un sistema de datos para la solicitud {{reference}} ha vencido; se recordó a su responsable y no ha respondido.'),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Tarea', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Acción', '{{taskAction task.action}}', 'task.action'),
      fact('Estado', '{{task.state}}', 'task.state'),
      fact('Vencía el', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Caduca el', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
    ),
    p('Contacte con el responsable del sistema o resuelva la tarea en la solicitud: reintentarla, omitirla indicando el motivo o completarla a mano con la evidencia.'),
  ]),
  duplicate_marked: operatorMessage(frame, '[DSAR] Marcada como duplicada: {{reference}}{{#if duplicate.ofReference}} de {{duplicate.ofReference}}{{/if}}', [
    when(
      'duplicate.ofReference',
      p(
        'La solicitud {{reference}} se marcó al recibirse como duplicada de la solicitud {{duplicate.ofReference}}: comparte una identidad con una solicitud abierta del mismo tipo y jurisdicción, recibida dentro del periodo de la comprobación.',
      ),
      p('La solicitud {{reference}} se marcó al recibirse como duplicada: comparte una identidad con una solicitud abierta del mismo tipo y jurisdicción.'),
    ),
    facts(
      fact('Referencia', '{{reference}}'),
      fact('ID de la solicitud', '{{requestId}}'),
      fact('Duplicada de', '{{duplicate.ofReference}} ({{duplicate.of}})', 'duplicate.of'),
      fact('Coincidencia en', '{{identityKinds duplicate.matchedKinds}}', 'duplicate.matchedKinds.length'),
      fact('Solicitudes con estas identidades', '{{duplicate.sameIdentityRequests}}{{#if duplicate.windowDays}} en {{days duplicate.windowDays}}{{/if}}', 'duplicate.sameIdentityRequests'),
      fact('Marcada el', '{{datetime duplicate.markedAt}}', 'duplicate.markedAt'),
    ),
    p(
      `La solicitud sigue abierta hasta que usted decida, indicando el motivo: confirmarla (se deniega por duplicada y se comunica a la persona la referencia de la solicitud anterior) o separarla (se tramita como una solicitud propia):\n${DUPLICATE_RESOLUTION}`,
    ),
  ]),
};
