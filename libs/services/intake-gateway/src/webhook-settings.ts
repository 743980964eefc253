import { z } from 'zod';
import { resolveJurisdiction } from '@dsar/contracts';
import { jsonFromEnv, type RequestReferenceKeyConfig, requestReferenceKeysFrom } from '@dsar/platform/config';
import { webhookSecretKey } from '@dsar/platform/http';

/**
 * Settings of the inbound webhooks (docs/webhooks.md, README configuration
 * table), shared by the intake-gateway app and the embedded runner: the
 * signing secrets of the providers and the routes that give each mailbox or
 * Slack team a tenant, a workspace and a default jurisdiction. Checked at
 * start-up: a route whose provider has no secret stops it, so no message is
 * ever taken unsigned.
 */

const tenantId = z.string().trim().min(1).max(128);
const workspaceId = z.string().trim().min(1).max(128);
/** A jurisdiction code a built-in policy pack covers, case-insensitive; kept as the pack spells it (`de` → `DE`). */
const jurisdiction = z
  .string()
  .trim()
  .min(2)
  .transform((code, ctx) => {
    const resolved = resolveJurisdiction(code);
    if (!resolved) {
      ctx.addIssue({ code: 'custom', message: `${code} is not a jurisdiction of a policy pack (GET /policies lists them)` });
      return z.NEVER;
    }
    return resolved.binding.code;
  });

export const mailRoute = z.strictObject({
  /** The address the provider receives mail for, e.g. `privacy@acme.example`; compared in lower case. */
  mailbox: z.email('must be an email address').transform((a) => a.toLowerCase()),
  tenantId,
  workspaceId: workspaceId.optional(),
  jurisdiction,
});
export type MailRoute = z.infer<typeof mailRoute>;

export const slackRoute = z.strictObject({
  /** The workspace's team id (`T…`; `E…` for an Enterprise Grid organization). */
  slackTeamId: z.string().regex(/^[TE][A-Z0-9]{2,31}$/, 'a Slack team id such as T0123ABCD'),
  /** One channel of the team (`C…`, `G…` private, `D…` direct); without it the route covers every channel of the team. */
  slackChannelId: z
    .string()
    .regex(/^[CGD][A-Z0-9]{2,31}$/, 'a Slack channel id such as C0123ABCD')
    .optional(),
  tenantId,
  workspaceId: workspaceId.optional(),
  jurisdiction,
});
export type SlackRoute = z.infer<typeof slackRoute>;

/** One entry of INBOUND_ROUTES: a mailbox, or a Slack team (and channel). */
export type InboundRoute = MailRoute | SlackRoute;

const isMailRoute = (r: InboundRoute): r is MailRoute => 'mailbox' in r;

/** One route, read as a mailbox's or a Slack team's by the key it has, so that a problem names its field. */
const inboundRoute = z.unknown().transform((value, ctx): InboundRoute => {
  const kind = value !== null && typeof value === 'object' ? ('mailbox' in value ? mailRoute : 'slackTeamId' in value ? slackRoute : undefined) : undefined;
  if (!kind) {
    ctx.addIssue({ code: 'custom', message: 'each route is {mailbox, tenantId, workspaceId?, jurisdiction} or {slackTeamId, slackChannelId?, tenantId, workspaceId?, jurisdiction}' });
    return z.NEVER;
  }
  const parsed = kind.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  return z.NEVER;
});

/** INBOUND_ROUTES parsed: each mailbox, and each Slack team and channel, routed once. */
export const inboundRoutes = z
  .array(inboundRoute)
  .max(1000)
  .superRefine((routes, ctx) => {
    const seen = new Set<string>();
    routes.forEach((r, i) => {
      const key = isMailRoute(r) ? `mailbox ${r.mailbox}` : `Slack team ${r.slackTeamId}${r.slackChannelId ? ` channel ${r.slackChannelId}` : ''}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `${key} is routed twice` });
      seen.add(key);
    });
  });

/** `whsec_` secrets, comma-separated: every one of them is accepted, so a new one can be added before the old is retired. */
const mailSecrets = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .superRefine((secrets, ctx) => {
    secrets.forEach((secret, i) => {
      try {
        webhookSecretKey(secret);
      } catch (e) {
        // The message never repeats the secret.
        ctx.addIssue({ code: 'custom', message: `secret ${i + 1}: ${(e as Error).message}` });
      }
    });
  });

export const webhookFields = {
  /** The email provider's signing secrets (Standard Webhooks / Svix `whsec_…`), comma-separated for rotation; unset: the mail webhook is off. */
  MAIL_WEBHOOK_SECRET: mailSecrets.optional(),
  /** Slack's signing secret (the app's Basic Information page); unset: the chat webhook is off. */
  SLACK_SIGNING_SECRET: z.string().trim().min(16, 'a Slack signing secret (32 hex characters)').optional(),
  /** The routes, as JSON: `[{"mailbox": …, "tenantId": …, "workspaceId"?: …, "jurisdiction": …}, {"slackTeamId": …, "slackChannelId"?: …, …}]`. */
  INBOUND_ROUTES: jsonFromEnv('must be a JSON array of routes', '[]').pipe(inboundRoutes),
};

export interface WebhookConfig extends RequestReferenceKeyConfig {
  /** Parsed, a list; the runner of the tests may also give the comma-separated text. */
  MAIL_WEBHOOK_SECRET?: string[] | string;
  SLACK_SIGNING_SECRET?: string;
  INBOUND_ROUTES: InboundRoute[];
  HTTP_BODY_LIMIT?: string;
}

const secretsOf = (config: Partial<WebhookConfig>): string[] => (typeof config.MAIL_WEBHOOK_SECRET === 'string' ? mailSecrets.parse(config.MAIL_WEBHOOK_SECRET) : (config.MAIL_WEBHOOK_SECRET ?? []));

/** Why the routes cannot start: a route of a provider whose secret is not configured. */
function unsignedRoutes(config: Partial<WebhookConfig>): { path: keyof WebhookConfig; message: string }[] {
  const routes = config.INBOUND_ROUTES ?? [];
  const problems: { path: keyof WebhookConfig; message: string }[] = [];
  if (routes.some(isMailRoute) && secretsOf(config).length === 0) {
    problems.push({ path: 'MAIL_WEBHOOK_SECRET', message: 'required when INBOUND_ROUTES routes a mailbox: inbound mail is never taken unsigned' });
  }
  if (routes.some((r) => !isMailRoute(r)) && !config.SLACK_SIGNING_SECRET) {
    problems.push({ path: 'SLACK_SIGNING_SECRET', message: 'required when INBOUND_ROUTES routes a Slack team: chat messages are never taken unsigned' });
  }
  return problems;
}

/** Cross-field rule of the app and runner schemas (`.superRefine`): every route's provider has its secret. */
export function requireWebhookSettings(config: Partial<WebhookConfig>, ctx: z.RefinementCtx): void {
  for (const { path, message } of unsignedRoutes(config)) ctx.addIssue({ code: 'custom', path: [path], message });
}

/** What the webhooks run on. */
export interface WebhookSettings {
  /** The HMAC keys of the `whsec_` secrets; empty: the mail webhook answers 404 WEBHOOK_NOT_CONFIGURED. */
  mailKeys: readonly Buffer[];
  /** Empty: the chat webhook answers 404 WEBHOOK_NOT_CONFIGURED. */
  slackSigningSecret?: string;
  mailRoutes: readonly MailRoute[];
  slackRoutes: readonly SlackRoute[];
  /** The largest delivery read (HTTP_BODY_LIMIT). */
  bodyLimit: string;
  /**
   * REQUEST_REFERENCE_KEY, the current key first: a quoted reference's tag is checked against each. Empty (only
   * outside the shipped processes, whose configuration requires a key): no tagged reference matches.
   */
  referenceKeys: readonly string[];
}

export const WEBHOOK_SETTINGS = Symbol('WEBHOOK_SETTINGS');

/**
 * The settings from configuration (already parsed by webhookFields). A route
 * without its provider's secret is refused here too: the runner of the tests
 * builds its settings without the schema.
 */
export function webhookSettingsFrom(config: Partial<WebhookConfig>): WebhookSettings {
  const problems = unsignedRoutes(config);
  if (problems.length > 0) throw new Error(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  // Parsing parsed routes changes nothing; routes written by hand (tests) get their checks and spelling here.
  const routes = inboundRoutes.parse(config.INBOUND_ROUTES ?? []);
  return {
    mailKeys: secretsOf(config).map(webhookSecretKey),
    ...(config.SLACK_SIGNING_SECRET ? { slackSigningSecret: config.SLACK_SIGNING_SECRET } : {}),
    mailRoutes: routes.filter(isMailRoute),
    slackRoutes: routes.filter((r): r is SlackRoute => !isMailRoute(r)),
    bodyLimit: config.HTTP_BODY_LIMIT ?? '1mb',
    referenceKeys: requestReferenceKeysFrom(config),
  };
}
