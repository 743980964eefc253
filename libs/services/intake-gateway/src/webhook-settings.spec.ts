import { z } from 'zod';
import { requireWebhookSettings, webhookFields, webhookSettingsFrom } from './webhook-settings';

/** The webhook settings as the apps load them: parsed, then checked across fields. */
const schema = z.object(webhookFields).superRefine(requireWebhookSettings);
const problems = (env: Record<string, string>) => {
  const result = schema.safeParse(env);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

const SECRET = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const NEXT = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
const MAIL_ROUTE = { mailbox: 'privacy@acme.example', tenantId: 'acme', jurisdiction: 'DE' };
const SLACK_ROUTE = { slackTeamId: 'T0ACME', tenantId: 'acme', jurisdiction: 'EU' };

describe('webhook settings at start-up', () => {
  it('takes no webhooks at all: both off', () => {
    expect(problems({})).toEqual([]);
    expect(webhookSettingsFrom(schema.parse({}))).toMatchObject({ mailKeys: [], mailRoutes: [], slackRoutes: [], bodyLimit: '1mb' });
  });

  it('takes routes with their secrets, several mail secrets for rotation', () => {
    const config = schema.parse({ MAIL_WEBHOOK_SECRET: `${SECRET}, ${NEXT}`, SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5', INBOUND_ROUTES: JSON.stringify([MAIL_ROUTE, SLACK_ROUTE]) });
    const settings = webhookSettingsFrom(config);
    expect(settings.mailKeys.map((k) => k.length)).toEqual([24, 32]);
    expect(settings.mailRoutes).toEqual([MAIL_ROUTE]);
    expect(settings.slackRoutes).toEqual([SLACK_ROUTE]);
  });

  it('refuses a route whose provider has no secret: never accepted unsigned', () => {
    expect(problems({ INBOUND_ROUTES: JSON.stringify([MAIL_ROUTE]) })).toEqual(['MAIL_WEBHOOK_SECRET: required when INBOUND_ROUTES routes a mailbox: inbound mail is never taken unsigned']);
    expect(problems({ INBOUND_ROUTES: JSON.stringify([SLACK_ROUTE]), MAIL_WEBHOOK_SECRET: SECRET })).toEqual([
      'SLACK_SIGNING_SECRET: required when INBOUND_ROUTES routes a Slack team: chat messages are never taken unsigned',
    ]);
    expect(() => webhookSettingsFrom({ INBOUND_ROUTES: [MAIL_ROUTE] })).toThrow(/MAIL_WEBHOOK_SECRET/);
  });

  it('refuses secrets that are not whsec_ base64 of 24 to 64 bytes, without repeating them', () => {
    const found = problems({ MAIL_WEBHOOK_SECRET: `${SECRET},not-a-secret-value` });
    expect(found).toEqual(['MAIL_WEBHOOK_SECRET: secret 2: must be whsec_ followed by base64 (as the provider shows it)']);
    expect(found.join()).not.toContain('not-a-secret-value');
    expect(problems({ SLACK_SIGNING_SECRET: 'short' })).toEqual(['SLACK_SIGNING_SECRET: a Slack signing secret (32 hex characters)']);
  });

  it('refuses routes that are not JSON, of an unknown shape or jurisdiction, or twice the same', () => {
    expect(problems({ INBOUND_ROUTES: '[{' })).toEqual(['INBOUND_ROUTES: must be a JSON array of routes']);
    expect(problems({ INBOUND_ROUTES: JSON.stringify([{ ...MAIL_ROUTE, jurisdiction: 'XX' }]), MAIL_WEBHOOK_SECRET: SECRET })).toEqual([
      'INBOUND_ROUTES.0.jurisdiction: XX is not a jurisdiction of a policy pack (GET /policies lists them)',
    ]);
    expect(problems({ INBOUND_ROUTES: JSON.stringify([{ tenantId: 'acme', jurisdiction: 'DE' }]) })).toHaveLength(1);
    expect(problems({ INBOUND_ROUTES: JSON.stringify([MAIL_ROUTE, { ...MAIL_ROUTE, mailbox: 'PRIVACY@acme.example', tenantId: 'other' }]), MAIL_WEBHOOK_SECRET: SECRET })).toEqual([
      'INBOUND_ROUTES.1: mailbox privacy@acme.example is routed twice',
    ]);
    expect(
      problems({
        INBOUND_ROUTES: JSON.stringify([SLACK_ROUTE, { ...SLACK_ROUTE, slackChannelId: 'C01' }, { ...SLACK_ROUTE, tenantId: 'other' }]),
        SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
      }),
    ).toEqual(['INBOUND_ROUTES.2: Slack team T0ACME is routed twice']);
  });
});
