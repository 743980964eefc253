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

// Written with "você", as used in Brazil (where most Portuguese-speaking requesters are); "titular" is the LGPD's word for the data subject.
const frame: Frame = {
  lang: 'pt',
  greeting: '{{#if recipientName}}Prezado(a) {{recipientName}},{{else}}Prezado(a) titular,{{/if}}',
  signOff: ['Atenciosamente,', 'Equipe de Privacidade'],
  subjectFooter: 'Por favor, informe sua referência {{reference}} em qualquer resposta.',
  operatorFooter: 'Esta mensagem não contém dados pessoais. Consulte a solicitação pela referência para ver os detalhes.',
  ownerFooter:
    'Você recebe esta mensagem como responsável por um sistema de dados registrado para as solicitações de titulares. Ela não contém dados pessoais: os identificadores a procurar vêm com a atribuição da tarefa.',
};

const COMPLAINT = 'o direito de apresentar uma reclamação a uma autoridade de proteção de dados ou a outra autoridade competente, bem como de buscar a tutela judicial.';

export const pt: Record<NotificationKind, MessageTemplates> = {
  request_acknowledged: subjectMessage(frame, 'Recebemos sua solicitação {{reference}}', [
    p('Agradecemos seu contato. Recebemos sua solicitação e vamos tratá-la de acordo com a legislação de proteção de dados aplicável.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('Tipo de solicitação', '{{requestType requestType}}', 'requestType'),
      fact('Recebida em', '{{date receivedAt}}', 'receivedAt'),
      fact('Prazo de resposta', '{{date dueAt}}', 'dueAt'),
    ),
    quote('message'),
    when('dueAt', p('Responderemos até {{date dueAt}}. Se precisarmos de mais tempo, avisaremos você antes dessa data e explicaremos os motivos.')),
    p('Talvez seja necessário confirmar sua identidade antes de atendermos sua solicitação; nesse caso, entraremos em contato com você.'),
  ]),

  clarification_requested: subjectMessage(frame, 'Sua solicitação {{reference}}: precisamos de mais informações', [
    p('Para dar andamento à sua solicitação {{reference}}, precisamos de algumas informações adicionais.'),
    quote('message', 'Nossa pergunta:'),
    p(
      'Por favor, responda a esta mensagem com as informações solicitadas. Até recebermos sua resposta, o prazo para atender sua solicitação pode ficar suspenso; ele volta a correr assim que tivermos seu retorno.',
    ),
  ]),

  verification_requested: subjectMessage(frame, 'Sua solicitação {{reference}}: confirme sua identidade', [
    p('Para proteger seus dados pessoais, precisamos confirmar sua identidade antes de atender sua solicitação {{reference}}.'),
    when('verification.methods.length', p('Você pode fazer isso por meio de {{methods verification.methods}}.')),
    when(
      'verification.expiresAt',
      p('Conclua a verificação até {{datetime verification.expiresAt}}. Se não conseguirmos confirmar sua identidade até lá, talvez não possamos atender sua solicitação.'),
    ),
    p('Usaremos as informações que você nos fornecer para isso apenas para confirmar sua identidade.'),
  ]),

  verification_reminder: subjectMessage(frame, 'Lembrete: confirme sua identidade (solicitação {{reference}})', [
    p('Ainda aguardamos a confirmação da sua identidade para a solicitação {{reference}}. Só poderemos atendê-la depois disso.'),
    when('verification.methods.length', p('Você pode fazer isso por meio de {{methods verification.methods}}.')),
    when('verification.expiresAt', p('A verificação fica disponível até {{datetime verification.expiresAt}}. Depois disso, talvez não possamos atender sua solicitação.')),
    p('Se você já concluiu a verificação, desconsidere este lembrete.'),
  ]),

  deadline_extended: subjectMessage(frame, 'Sua solicitação {{reference}}: prorrogação do prazo de resposta', [
    p('Precisamos de mais tempo para responder à sua solicitação {{reference}}. Conforme exige a lei, informamos a prorrogação do prazo, sua duração e os motivos.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('Prorrogação', '{{extensionLength extension}}', 'extension'),
      fact('Prazo anterior', '{{date extension.previousDueAt}}', 'extension.previousDueAt'),
      fact('Novo prazo', `{{date ${NEW_DUE}}}`, NEW_DUE),
    ),
    quote('extension.reason', 'Motivos da prorrogação:'),
    when(NEW_DUE, p(`Responderemos à sua solicitação até {{date ${NEW_DUE}}}.`)),
    p('Se tiver dúvidas sobre a prorrogação, basta responder a esta mensagem.'),
  ]),

  request_refused: subjectMessage(frame, 'Sua solicitação {{reference}}: nossa decisão', [
    p(`Analisamos com atenção sua solicitação {{reference}}${TYPE_SUFFIX}. Infelizmente, não podemos atendê-la.`),
    when('refusal.reason', facts(fact('Motivo', '{{refusalReason refusal.reason}}'))),
    quote('message'),
    when(
      'refusal.appealAvailable',
      p(`Se você não concordar com esta decisão, tem o direito de recorrer dela junto a nós: basta responder a esta mensagem informando sua referência {{reference}}. Você também tem ${COMPLAINT}`),
      p(`Se você não concordar com esta decisão, tem ${COMPLAINT}`),
    ),
  ]),

  request_fulfilled: subjectMessage(frame, 'Sua solicitação {{reference}} foi concluída', [
    p(`Concluímos o atendimento da sua solicitação {{reference}}${TYPE_SUFFIX}.`),
    p('Se tiver dúvidas ou não estiver satisfeito(a) com o atendimento da sua solicitação, responda a esta mensagem.'),
  ]),

  delivery_prepared: subjectMessage(frame, 'Sua solicitação {{reference}}: seus dados estão prontos', [
    p('Os dados que preparamos em resposta à sua solicitação {{reference}} estão prontos.'),
    when(
      BY_EMAIL,
      [
        when('delivery.link', [p('Para baixá-los, abra este link:'), link('delivery.link')], p('Enviaremos um link para você baixá-los.')),
        when('delivery.expiresAt', p('O link é válido até {{datetime delivery.expiresAt}}.')),
        p(
          'O link só pode ser aberto uma vez e em um único navegador: abra-o no navegador em que você deseja salvar seus arquivos e baixe todos eles lá. Para abrir a página, você precisará de um código de uso único, que enviamos em um e-mail separado.',
        ),
        p('Não encaminhe este e-mail nem compartilhe o link com ninguém. Se o link tiver expirado ou não funcionar mais, entre em contato conosco e enviaremos um novo.'),
      ],
      [
        when('delivery.channel', p('Você os receberá {{channel delivery.channel}}.'), p('Enviaremos instruções sobre como acessá-los.')),
        when(
          '(eq delivery.level "standard")',
          p('Talvez seja solicitado que você faça login ou confirme novamente sua identidade antes de abri-los.'),
          p('Para sua segurança, você precisará de um código de uso único, que enviaremos separadamente, para abri-los.'),
        ),
        when(
          'delivery.expiresAt',
          p('O link é válido até {{datetime delivery.expiresAt}}. Depois disso, entre em contato conosco e disponibilizaremos seus dados novamente.'),
          p('O link é válido apenas por tempo limitado. Se ele tiver expirado, entre em contato conosco e disponibilizaremos seus dados novamente.'),
        ),
        p('Não compartilhe o link nem o código com ninguém. Nunca pediremos sua senha.'),
      ],
    ),
  ]),

  delivery_code: subjectMessage(frame, 'Sua solicitação {{reference}}: seu código de uso único', [
    when('delivery.code', [p('Seu código de uso único para baixar seus dados é:'), code('delivery.code')]),
    p('Digite o código na página aberta pelo link do nosso outro e-mail sobre esta solicitação.'),
    when('delivery.expiresAt', p('O código é válido até {{datetime delivery.expiresAt}} e só funciona com esse link.')),
    p('Nunca compartilhe este código com ninguém, nem mesmo conosco. Nunca pediremos esse código a você, nem por telefone, nem por e-mail, nem de nenhuma outra forma.'),
    p('Se você não pediu seus dados, não use o código e nos avise imediatamente, informando sua referência {{reference}}, mas não o código.'),
  ]),

  appeal_received: subjectMessage(frame, 'Recebemos seu recurso sobre a solicitação {{reference}}', [
    p('Recebemos seu recurso referente à sua solicitação {{reference}}.'),
    when('appeal.dueAt', p('Vamos decidir até {{date appeal.dueAt}} e informaremos a decisão e os motivos.'), p('Informaremos a decisão e os motivos assim que ela for tomada.')),
  ]),

  appeal_decided: subjectMessage(frame, 'Seu recurso sobre a solicitação {{reference}}: nossa decisão', [
    p('Decidimos sobre seu recurso referente à sua solicitação {{reference}}.'),
    when('appeal.decision', facts(fact('Decisão', '{{appealDecision appeal.decision}}'))),
    quote('message'),
    when(
      'appeal.reopened',
      p('Reabrimos sua solicitação e vamos tratá-la novamente.{{#if dueAt}} Responderemos até {{date dueAt}}.{{/if}}'),
      p(`Se você não concordar com esta decisão, tem ${COMPLAINT}`),
    ),
  ]),

  request_created: operatorMessage(frame, `[DSAR] Nova solicitação {{reference}}${TYPE_SUFFIX}`, [
    p('Uma nova solicitação foi recebida.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Tipo', '{{requestType requestType}}', 'requestType'),
      fact('Jurisdição', JURISDICTION, '(or jurisdiction jurisdictionName)'),
      fact('Recebida em', '{{date receivedAt}}', 'receivedAt'),
      fact('Prazo', '{{date dueAt}}', 'dueAt'),
    ),
  ]),

  deadline_approaching: operatorMessage(frame, '[DSAR] Prazo próximo do vencimento: {{reference}}', [
    p('Um prazo da solicitação {{reference}} está próximo do vencimento.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Prazo', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Dias restantes', '{{deadline.thresholdDays}}', '(present deadline.thresholdDays)'),
      fact('Vencimento', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Garanta que a solicitação seja atendida a tempo.'),
  ]),

  deadline_breached: operatorMessage(frame, '[DSAR] Prazo descumprido: {{reference}}', [
    p('Um prazo da solicitação {{reference}} venceu sem que a ação necessária fosse realizada.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Prazo', '{{deadlineKind deadline.kind}}', 'deadline.kind'),
      fact('Venceu em', '{{date dueAt}}', 'dueAt'),
      fact('Status', '{{deadline.status}}', 'deadline.status'),
    ),
    p('Atenda a solicitação sem mais demora e registre o motivo do atraso.'),
  ]),

  verification_expired: operatorMessage(frame, '[DSAR] Verificação de identidade expirada: {{reference}}', [
    p('A verificação de identidade da solicitação {{reference}} expirou sem ser concluída.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Expirou em', '{{datetime verification.expiresAt}}', 'verification.expiresAt'),
      fact('Métodos oferecidos', '{{methods verification.methods}}', 'verification.methods.length'),
      fact('Vencimento da solicitação', '{{date dueAt}}', 'dueAt'),
    ),
    p('Decida como prosseguir com a solicitação, por exemplo, recusá-la porque não foi possível verificar a identidade.'),
  ]),

  appeal_by_reply: operatorMessage(frame, '[DSAR] {{#if appeal.dueAt}}Recurso por resposta{{else}}Resposta a uma recusa, a confirmar{{/if}}: {{reference}}', [
    when(
      'appeal.dueAt',
      p('O titular respondeu à recusa da solicitação {{reference}} e a resposta foi registrada como recurso.'),
      p('Não foi possível confirmar que uma resposta à recusa da solicitação {{reference}} é do titular. Nenhum recurso foi registrado.'),
    ),
    facts(fact('Referência', '{{reference}}'), fact('ID da solicitação', '{{requestId}}'), fact('Decidir o recurso até', '{{date appeal.dueAt}}', 'appeal.dueAt')),
    when(
      'appeal.dueAt',
      p('Decida o recurso até o prazo. A resposta está no histórico da solicitação; leia-a na caixa de entrada ou no canal por onde chegou.'),
      p('Leia a resposta na caixa de entrada ou no canal por onde chegou, confirme-a com o titular e, se ele contestar a recusa, registre o recurso em nome dele.'),
    ),
  ]),

  message_parked: operatorMessage(frame, '[DSAR] Mensagem separada para análise{{#if parked.eventType}}: {{parked.eventType}}{{/if}} ({{reference}})', [
    p('Uma mensagem não pôde ser processada e foi separada para análise. Até que seja tratada, a solicitação {{reference}} pode estar desatualizada.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('Tópico', '{{parked.topic}}', 'parked.topic'),
      fact('Tipo de evento', '{{parked.eventType}}', 'parked.eventType'),
      fact('Consumidor', '{{parked.consumer}}', 'parked.consumer'),
      fact('Motivo', '{{parked.reason}}', 'parked.reason'),
      fact('Assunto do evento', '{{parked.subject}}', 'parked.subject'),
    ),
    p('Analise a mensagem, corrija a causa e reprocesse-a.'),
  ]),

  daily_digest: operatorMessage(frame, '[DSAR] Resumo diário{{#if digest.date}} de {{date digest.date}}{{/if}}: {{count digest.atRisk}} em risco, {{count digest.overdue}} atrasadas', [
    facts(
      fact('Data', '{{date digest.date}}', 'digest.date'),
      fact('Em risco', '{{count digest.atRisk}}'),
      fact('Atrasadas', '{{count digest.overdue}}'),
      fact('Referência do resumo', '{{reference}}'),
    ),
    list('digest.overdue', '{{reference}} ({{requestId}}) – prazo: {{date dueAt}} ({{status}})', 'Solicitações atrasadas:'),
    list('digest.atRisk', '{{reference}} ({{requestId}}) – prazo: {{date dueAt}} ({{status}})', 'Solicitações em risco:'),
    when('(or (count digest.atRisk) (count digest.overdue))', [], p('Nenhuma solicitação em risco ou atrasada.')),
  ]),

  notification_failed: operatorMessage(frame, '[DSAR] Notificação não entregue: {{reference}}', [
    p('Uma notificação não pôde ser entregue.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Notificação', '{{failure.kind}}', 'failure.kind'),
      fact('Canal', '{{failure.channel}}', 'failure.channel'),
      fact('Destino', '{{mask failure.destination}}', 'failure.destination'),
      fact('Erro', '{{failure.error}}', 'failure.error'),
    ),
    p('Verifique a configuração do canal e, se necessário, garanta que o titular seja informado por outro meio.'),
  ]),
  task_assigned: ownerMessage(frame, `[DSAR] Nova tarefa{{#if task}} para ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Uma solicitação de um titular exige trabalho em um sistema de dados pelo qual você é responsável.'),
    facts(
      fact('Tarefa', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Ação', '{{taskAction task.action}}', 'task.action'),
      fact('Prazo', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Prazo legal da solicitação', '{{date task.legalDueAt}}', 'task.legalDueAt'),
      fact('Solicitação', '{{reference}}'),
    ),
    when(
      'task.id',
      p(
        `Assuma a tarefa; ao assumi-la, você vê os identificadores a procurar e recebe o token da sua resposta:\n${CLAIM_COMMAND}\nDepois, responda com o token da atribuição em DSAR_TASK_TOKEN (complete, not_found, error, action_required ou skipped; uma eliminação com a sua confirmação):\n${ANSWER_COMMAND}`,
      ),
    ),
    p('Responda até o prazo. Se não for possível, responda com o resultado que se aplica em vez de deixar a tarefa aberta.'),
  ]),

  task_overdue: ownerMessage(frame, `[DSAR] Tarefa atrasada{{#if task}} para ${SYSTEM_NAME}{{/if}}: {{reference}}`, [
    p('Uma tarefa de um sistema de dados pelo qual você é responsável passou do prazo sem resposta.'),
    facts(
      fact('Tarefa', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Ação', '{{taskAction task.action}}', 'task.action'),
      fact('Prazo era', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Estado', '{{task.state}}', 'task.state'),
      fact('Expira em', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
      fact('Solicitação', '{{reference}}'),
    ),
    when('task.id', p(`Para assumi-la (se ninguém o fez):\n${CLAIM_COMMAND}\nPara respondê-la, com o token da sua atribuição em DSAR_TASK_TOKEN:\n${ANSWER_COMMAND}`)),
    p('Se o sistema não puder responder, responda com o resultado que se aplica (not_found, error ou action_required). Os operadores são alertados se a tarefa continuar aberta.'),
  ]),

  task_escalated: operatorMessage(frame, `[DSAR] Sistema de dados atrasado{{#if task}}: ${SYSTEM_NAME}{{/if}} ({{reference}})`, [
    p('A tarefa de um sistema de dados da solicitação {{reference}} está atrasada; o responsável foi lembrado e não respondeu.'),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Tarefa', '{{task.id}}', 'task.id'),
      fact('Sistema', SYSTEM, 'task.systemKey'),
      fact('Ação', '{{taskAction task.action}}', 'task.action'),
      fact('Estado', '{{task.state}}', 'task.state'),
      fact('Prazo era', '{{date task.dueAt}}', 'task.dueAt'),
      fact('Expira em', '{{datetime task.timeoutAt}}', 'task.timeoutAt'),
    ),
    p('Cobre o responsável pelo sistema ou resolva a tarefa na solicitação: tente de novo, pule-a com um motivo ou conclua-a manualmente com a evidência.'),
  ]),
  duplicate_marked: operatorMessage(frame, '[DSAR] Marcada como duplicada: {{reference}}{{#if duplicate.ofReference}} de {{duplicate.ofReference}}{{/if}}', [
    when(
      'duplicate.ofReference',
      p(
        'A solicitação {{reference}} foi marcada no recebimento como duplicada da solicitação {{duplicate.ofReference}}: ela compartilha uma identidade com uma solicitação aberta do mesmo tipo e jurisdição, recebida dentro do período da verificação.',
      ),
      p('A solicitação {{reference}} foi marcada no recebimento como duplicada: ela compartilha uma identidade com uma solicitação aberta do mesmo tipo e jurisdição.'),
    ),
    facts(
      fact('Referência', '{{reference}}'),
      fact('ID da solicitação', '{{requestId}}'),
      fact('Duplicada de', '{{duplicate.ofReference}} ({{duplicate.of}})', 'duplicate.of'),
      fact('Coincidência em', '{{identityKinds duplicate.matchedKinds}}', 'duplicate.matchedKinds.length'),
      fact('Solicitações com estas identidades', '{{duplicate.sameIdentityRequests}}{{#if duplicate.windowDays}} em {{days duplicate.windowDays}}{{/if}}', 'duplicate.sameIdentityRequests'),
      fact('Marcada em', '{{datetime duplicate.markedAt}}', 'duplicate.markedAt'),
    ),
    p(
      `A solicitação continua aberta até que você decida, informando o motivo: confirmá-la (ela é recusada como duplicada e a pessoa recebe a referência da solicitação anterior) ou separá-la (ela é tratada como uma solicitação própria):\n${DUPLICATE_RESOLUTION}`,
    ),
  ]),
};
