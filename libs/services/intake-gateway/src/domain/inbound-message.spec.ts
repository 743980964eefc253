import { ProblemError } from '@dsar/platform/errors';
import { inboundRoutes } from '../webhook-settings';
import { readChatEvent, readMailEvent, routeOfChat, routeOfMail } from './inbound-message';

const NOW = new Date('2026-03-03T12:00:00Z');

describe('readMailEvent', () => {
  it("reads the generic shape: text (or the HTML's), sender, thread and the envelope's time", () => {
    const m = readMailEvent(
      {
        created_at: '2026-03-03T10:00:00Z',
        type: 'email.received',
        data: {
          from: 'Jane <Jane@Example.org>',
          to: 'privacy@acme.example, other@acme.example',
          cc: ['cc@acme.example'],
          subject: 'Re: DSAR-1A2B3C4D',
          text: '',
          html: '<p>Please <b>delete</b> my data</p>',
          messageId: '<m2@mail.example.org>',
          inReplyTo: '<m1@mail.example.org>',
          references: '<m0@mail.example.org> <m1@mail.example.org>',
          headers: { 'Auto-Submitted': 'no' },
        },
      },
      'msg_1',
    );
    expect(m).toMatchObject({
      surface: 'inbound_mail',
      provider: 'generic',
      deliveryId: 'msg_1',
      sourceId: '<m2@mail.example.org>',
      receivedAt: new Date('2026-03-03T10:00:00Z'),
      content: { subject: 'Re: DSAR-1A2B3C4D', text: 'Please delete my data', from: 'Jane <Jane@Example.org>', headers: { 'auto-submitted': 'no' } },
      contact: 'jane@example.org',
      thread: { own: 'mail:m2@mail.example.org', answers: ['mail:m1@mail.example.org', 'mail:m0@mail.example.org', 'mail:m1@mail.example.org'] },
      referenceText: 'Re: DSAR-1A2B3C4D',
      evidence: { type: 'email_message', reference: 'message-id:<m2@mail.example.org>' },
      recipients: ['privacy@acme.example', ' other@acme.example', 'cc@acme.example'],
    });
    expect(m.skip).toBeUndefined();
  });

  it("reads Resend's email.received: its own time, the envelope recipients first, headers when a relay adds them", () => {
    const m = readMailEvent(
      {
        created_at: '2026-03-03T10:00:05Z',
        type: 'email.received',
        data: {
          email_id: 'e-1',
          created_at: '2026-03-03T10:00:00.000Z',
          from: 'tom@example.org',
          to: ['alias@acme.example'],
          received_for: ['privacy@acme.example'],
          message_id: '<r1@resend.example>',
          subject: 'Access request',
          headers: { 'In-Reply-To': '<m1@x>', References: ['<m0@x>'] },
        },
      },
      'msg_2',
    );
    expect(m).toMatchObject({
      provider: 'resend',
      sourceId: 'e-1',
      receivedAt: new Date('2026-03-03T10:00:00Z'),
      content: { subject: 'Access request', text: '' },
      thread: { own: 'mail:r1@resend.example', answers: ['mail:m1@x', 'mail:m0@x'] },
      evidence: { reference: 'resend:email:e-1' },
      recipients: ['privacy@acme.example', 'alias@acme.example'],
    });
  });

  it('keeps an event of another type only to route and record it as ignored', () => {
    const m = readMailEvent({ created_at: '2026-03-03T10:00:00Z', type: 'email.bounced', data: { email_id: 'e-2', to: ['privacy@acme.example'] } }, 'msg_3');
    expect(m).toMatchObject({ skip: 'unsupported_event', sourceId: 'e-2', recipients: ['privacy@acme.example'] });
  });

  it('refuses an email.received that fits neither shape, naming its data fields', () => {
    const read = () => readMailEvent({ created_at: '2026-03-03T10:00:00Z', type: 'email.received', data: { email_id: 7, from: 'x@y' } }, 'msg_4');
    expect(read).toThrow(ProblemError);
    try {
      read();
    } catch (e) {
      expect((e as ProblemError).definition.name).toBe('REQUEST_VALIDATION_FAILED');
      expect((e as ProblemError).errors?.map((p) => p.field)).toEqual(['data.email_id']);
    }
    expect(() => readMailEvent({ created_at: '2026-03-03T10:00:00Z', type: 'email.received', data: 'text' }, 'msg_5')).toThrow(ProblemError);
  });
});

describe('readChatEvent', () => {
  const callback = (event: Record<string, unknown>) => ({
    type: 'event_callback' as const,
    team_id: 'T1',
    event_id: 'Ev1',
    event_time: 1772532000,
    event: { type: 'message', channel: 'C1', user: 'U1', ts: '1772531999.000200', ...event },
  });

  it("reads a person's message: its text as read, its time from ts, its thread", () => {
    const m = readChatEvent(callback({ text: 'Hi <@U0BOT>, please delete my data &amp; account, see <https://x.example|my profile>', thread_ts: '1772531000.000100' }), NOW);
    expect(m).toMatchObject({
      surface: 'inbound_chat',
      provider: 'slack',
      deliveryId: 'Ev1',
      sourceId: '1772531999.000200',
      receivedAt: new Date(1772531999000),
      content: { text: 'Hi  , please delete my data & account, see my profile' },
      contact: 'slack://user?team=T1&id=U1',
      thread: { own: 'slack:T1:C1:1772531999.000200', answers: ['slack:T1:C1:1772531000.000100'] },
      evidence: { type: 'chat_message', reference: 'slack:T1/C1/1772531999.000200' },
      chat: { teamId: 'T1', channelId: 'C1', callbackId: 'Ev1' },
    });
    expect(m.skip).toBeUndefined();
  });

  it.each([
    [{ bot_id: 'B1' }, 'bot_message'],
    [{ subtype: 'bot_message' }, 'bot_message'],
    [{ subtype: 'message_changed' }, 'message_edited'],
    [{ subtype: 'message_deleted' }, 'message_deleted'],
    [{ subtype: 'channel_join' }, 'unsupported_event'],
    [{ type: 'reaction_added' }, 'unsupported_event'],
    [{ user: undefined }, 'unsupported_event'],
  ])('ignores %j: %s', (event, reason) => {
    expect(readChatEvent(callback({ text: 'please delete my data', ...event }), NOW)).toMatchObject({ skip: reason, content: { text: '' } });
  });

  it('reads a file shared with a comment, and a mention of the app, as messages', () => {
    expect(readChatEvent(callback({ subtype: 'file_share', text: 'x' }), NOW).skip).toBeUndefined();
    expect(readChatEvent(callback({ type: 'app_mention', text: 'x' }), NOW).skip).toBeUndefined();
  });

  it("takes the event's time, then now, when the message has no ts", () => {
    expect(readChatEvent(callback({ ts: undefined, text: 'x' }), NOW).receivedAt).toEqual(new Date(1772532000000));
    expect(readChatEvent({ ...callback({ ts: undefined, text: 'x' }), event_time: undefined }, NOW).receivedAt).toEqual(NOW);
  });
});

describe('routes', () => {
  const routes = inboundRoutes.parse([
    { mailbox: 'Privacy@Acme.example', tenantId: 'acme', jurisdiction: 'de' },
    { mailbox: 'dpo@beta.example', tenantId: 'beta', workspaceId: 'eu', jurisdiction: 'FR' },
    { slackTeamId: 'T01', tenantId: 'acme', jurisdiction: 'GB' },
    { slackTeamId: 'T01', slackChannelId: 'C09', tenantId: 'acme', workspaceId: 'us', jurisdiction: 'US-CA' },
  ]);
  const mail = routes.filter((r) => 'mailbox' in r) as Parameters<typeof routeOfMail>[0];
  const slack = routes.filter((r) => 'slackTeamId' in r) as Parameters<typeof routeOfChat>[0];

  it('routes an email by its first recipient that is a mailbox, whatever its case and name', () => {
    expect(routeOfMail(mail, ['x@elsewhere.example', '"DPO" <DPO@beta.example>', 'privacy@acme.example'])).toMatchObject({ tenantId: 'beta', workspaceId: 'eu', jurisdiction: 'FR' });
    expect(routeOfMail(mail, ['PRIVACY@acme.example'])).toMatchObject({ tenantId: 'acme', jurisdiction: 'DE' });
    expect(routeOfMail(mail, ['privacy@acme.example.evil', 'nobody'])).toBeUndefined();
  });

  it('routes a Slack message by its channel, else its team', () => {
    expect(routeOfChat(slack, 'T01', 'C09')).toMatchObject({ workspaceId: 'us', jurisdiction: 'US-CA' });
    expect(routeOfChat(slack, 'T01', 'C01')).toMatchObject({ jurisdiction: 'GB' });
    expect(routeOfChat(slack, 'T01', null)).toMatchObject({ jurisdiction: 'GB' });
    expect(routeOfChat(slack, 'T02', 'C09')).toBeUndefined();
  });
});
