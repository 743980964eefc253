import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { jsonFromEnv, type RequestReferenceKeyConfig, requestReferenceKeysFrom } from '@dsar/platform/config';
import { type RetentionConfig, retentionFields, type RetentionSettings, retentionSettingsFrom } from '@dsar/platform/retention';
import { LOCALES, type Locale } from './domain/notification-kinds';
import { compileOverrides, type TemplateOverrides } from './domain/render';

const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone such as Europe/Berlin');

const emailList = z
  .string()
  .transform((s) => [
    ...new Set(
      s
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(z.array(z.email('each must be an email address')));

/**
 * The person's download page on the gateway's public address (docs/notifications.md#delivery-by-email): an absolute
 * http(s) URL whose path ends in `/portal/`, without a query or fragment, since a link appends `#<linkId>.<credential>`.
 */
const portalUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL, e.g. https://dsar.example.org/portal/', abort: true })
  .refine(isPortalUrl, 'must end in /portal/, without a query, fragment or credentials, e.g. https://dsar.example.org/portal/');

function isPortalUrl(value: string): boolean {
  const url = new URL(value);
  return value.endsWith('/portal/') && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}

/** One tenant's notification settings (NOTIFIER_TENANT_SETTINGS); every member is optional and falls back to the service-wide setting. */
const tenantSettings = z.strictObject({
  /** The From of the tenant's emails, e.g. `"Acme Privacy <privacy@acme.example>"`. */
  sender: z.string().min(3).optional(),
  operatorEmails: z.array(z.email()).max(50).optional(),
  slackChannel: z.string().min(1).max(80).optional(),
  operatorLocale: z.enum(LOCALES).optional(),
  /** The zone of the daily digest's time and of the dates in operator messages. */
  timeZone: timeZone.optional(),
  /** `HH:MM`, or `off`. */
  digestTime: z.union([z.string().regex(HH_MM), z.literal('off')]).optional(),
  /** Per kind, per locale: `{subject?, text?, html?}` Handlebars templates (docs/notifications.md#templates). */
  templates: z.unknown().optional(),
});
export type TenantNotificationSettings = Omit<z.infer<typeof tenantSettings>, 'templates'> & { templates?: TemplateOverrides };

/** The notifier's settings (README configuration table), shared by its app and the embedded runner. */
export const notifierFields = {
  /** The SMTP server, e.g. `smtps://user:pass@smtp.example.org:465`; unset in embedded mode: emails become .eml files under DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** A file holding SMTP_URL (it carries the password). */
  SMTP_URL_FILE: z.string().min(1).optional(),
  /** The From of every email unless the tenant has its own. */
  NOTIFIER_SENDER: z.string().min(3).default('Privacy Team <privacy@localhost>'),
  /** DKIM signing, optional: the domain, the selector and the private key (PEM, or a file). */
  NOTIFIER_DKIM_DOMAIN: z.string().min(1).optional(),
  NOTIFIER_DKIM_SELECTOR: z.string().min(1).optional(),
  NOTIFIER_DKIM_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  /** The Slack bot token (`xoxb-…`); unset: chat messages are logged (without their text). */
  SLACK_BOT_TOKEN: z.string().min(1).optional(),
  SLACK_BOT_TOKEN_FILE: z.string().min(1).optional(),
  /** The Slack Web API's base URL (a proxy or a test server). */
  SLACK_API_URL: z.url().default('https://slack.com/api/'),
  /** Operators' email addresses for every tenant without its own: a comma list. */
  NOTIFIER_OPERATOR_EMAILS: emailList.default([]),
  /** The operators' Slack channel for every tenant without its own. */
  NOTIFIER_SLACK_CHANNEL: z.string().min(1).max(80).optional(),
  /** The language of operator messages unless the tenant has its own. */
  NOTIFIER_OPERATOR_LOCALE: z.enum(LOCALES).default('en'),
  /** The zone of the digest time and of operator dates unless the tenant has its own. */
  NOTIFIER_TIME_ZONE: timeZone.default('UTC'),
  /** When the daily digest of requests at risk and overdue goes to operators (`HH:MM` in NOTIFIER_TIME_ZONE), or `off`. */
  NOTIFIER_DIGEST_TIME: z.union([z.string().regex(HH_MM, 'HH:MM or off'), z.literal('off')]).default('08:00'),
  /** Requests due within this many days count as at risk in the digest. */
  NOTIFIER_DIGEST_AT_RISK_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Per-tenant settings as JSON: `{"tenant-a": {"sender": "…", "operatorEmails": […], "slackChannel": "#privacy", "templates": {…}}}`. */
  NOTIFIER_TENANT_SETTINGS: jsonFromEnv('must be a JSON object of tenant ids to settings').pipe(z.record(z.string().min(1), tenantSettings)),
  /** The first retry waits about this long; each next one twice as long (with jitter), up to NOTIFIER_RETRY_MAX_MS. */
  NOTIFIER_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  NOTIFIER_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  /** Tries per channel before a notification is failed. */
  NOTIFIER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** How often due sends are looked for, in milliseconds (new notifications go out at once anyway); 0 turns the dispatcher off. */
  NOTIFIER_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /**
   * The person's download page, which the links of deliveries by email open: `<gateway's public URL>/portal/`.
   * Required by the notifier's own process (requirePortalUrl); the embedded runner defaults it to its gateway.
   */
  PORTAL_URL: portalUrlSchema.optional(),
  /** The retention sweep of `notification_log` (docs/retention.md). */
  ...retentionFields,
};

/** The notifier's process refuses to start without PORTAL_URL: a delivery by email could not send its link. */
export function requirePortalUrl(value: { PORTAL_URL?: string }, ctx: z.RefinementCtx): void {
  if (value.PORTAL_URL === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['PORTAL_URL'],
      message: "required: the person's download page on the gateway's public address, e.g. https://dsar.example.org/portal/ (the links of deliveries by email open it)",
    });
  }
}

export interface NotifierConfig extends RetentionConfig, RequestReferenceKeyConfig {
  DATA_DIR?: string;
  SMTP_URL?: string;
  SMTP_URL_FILE?: string;
  NOTIFIER_SENDER: string;
  NOTIFIER_DKIM_DOMAIN?: string;
  NOTIFIER_DKIM_SELECTOR?: string;
  NOTIFIER_DKIM_PRIVATE_KEY_FILE?: string;
  SLACK_BOT_TOKEN?: string;
  SLACK_BOT_TOKEN_FILE?: string;
  SLACK_API_URL: string;
  NOTIFIER_OPERATOR_EMAILS: string[];
  NOTIFIER_SLACK_CHANNEL?: string;
  NOTIFIER_OPERATOR_LOCALE: Locale;
  NOTIFIER_TIME_ZONE: string;
  NOTIFIER_DIGEST_TIME: string;
  NOTIFIER_DIGEST_AT_RISK_DAYS: number;
  NOTIFIER_TENANT_SETTINGS: Record<string, z.infer<typeof tenantSettings>>;
  NOTIFIER_RETRY_BASE_MS: number;
  NOTIFIER_RETRY_MAX_MS: number;
  NOTIFIER_MAX_ATTEMPTS: number;
  NOTIFIER_DISPATCH_INTERVAL_MS: number;
  PORTAL_URL?: string;
}

/** Where operator messages of a tenant go, in which language and zone. */
export interface OperatorSettings {
  emails: readonly string[];
  slackChannel?: string;
  locale: Locale;
  timeZone: string;
  digestTime: string;
}

export interface NotifierSettings {
  smtpUrl?: string;
  sender: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  slack?: { token: string; apiUrl: string };
  /** Where embedded mode writes emails when no SMTP server is configured. */
  mailDir: string;
  defaults: { operatorEmails: readonly string[]; slackChannel?: string; operatorLocale: Locale; timeZone: string; digestTime: string };
  tenants: Readonly<Record<string, TenantNotificationSettings>>;
  digestAtRiskDays: number;
  retry: { baseMs: number; maxMs: number; maxAttempts: number };
  dispatchIntervalMs: number;
  /** Sends claimed per dispatcher round. */
  batchSize: number;
  retention: RetentionSettings;
  /**
   * The current REQUEST_REFERENCE_KEY, which tags the reference in emails to data subjects. Absent (only outside the
   * shipped processes, whose configuration requires it): they carry the short reference, which answers nothing.
   */
  referenceKey?: string;
  /**
   * The person's download page (PORTAL_URL, ending in `/portal/`): a delivery by email links to
   * `<portalUrl>#<linkId>.<credential>`. Absent, such an email waits (a transient failure) until it is known: the
   * embedded runner sets it once its gateway listens when that took any free port (PORT 0); the notifier's own
   * process requires it.
   */
  portalUrl?: string;
}

export const NOTIFIER_SETTINGS = Symbol('NOTIFIER_SETTINGS');

function secret(value: string | undefined, file: string | undefined): string | undefined {
  if (value !== undefined) return value;
  return file === undefined ? undefined : readFileSync(file, 'utf8').trim();
}

/** The settings from configuration; absent values take the documented defaults, with the dispatcher off. */
const MEMORY_DATA_DIR = 'memory://';

/**
 * Where the file email channel writes without SMTP: `mail` in DATA_DIR. A `memory://<name>` DATA_DIR keeps nothing
 * in the working directory: its mail goes to the system's temporary directory (else a folder named `memory:` would
 * appear wherever the process started).
 */
export function mailDirOf(dataDir = './.data'): string {
  if (dataDir.startsWith(MEMORY_DATA_DIR)) return join(tmpdir(), 'dsar-memory', dataDir.slice(MEMORY_DATA_DIR.length).replace(/[^A-Za-z0-9._-]|^\./g, '_'), 'mail');
  return `${dataDir.replace(/\/$/, '')}/mail`;
}

export function notifierSettingsFrom(config: Partial<NotifierConfig>): NotifierSettings {
  const dkimKey = config.NOTIFIER_DKIM_PRIVATE_KEY_FILE ? readFileSync(config.NOTIFIER_DKIM_PRIVATE_KEY_FILE, 'utf8') : undefined;
  const slackToken = secret(config.SLACK_BOT_TOKEN, config.SLACK_BOT_TOKEN_FILE);
  const tenants = Object.fromEntries(
    Object.entries(config.NOTIFIER_TENANT_SETTINGS ?? {}).map(([tenant, s]) => {
      let templates: TemplateOverrides | undefined;
      try {
        templates = s.templates === undefined ? undefined : compileOverrides(s.templates);
      } catch (e) {
        throw new Error(`NOTIFIER_TENANT_SETTINGS.${tenant}.templates: ${(e as Error).message}`);
      }
      return [tenant, { ...s, templates }];
    }),
  );
  return {
    smtpUrl: secret(config.SMTP_URL, config.SMTP_URL_FILE),
    sender: config.NOTIFIER_SENDER ?? 'Privacy Team <privacy@localhost>',
    dkim:
      config.NOTIFIER_DKIM_DOMAIN && config.NOTIFIER_DKIM_SELECTOR && dkimKey
        ? { domainName: config.NOTIFIER_DKIM_DOMAIN, keySelector: config.NOTIFIER_DKIM_SELECTOR, privateKey: dkimKey }
        : undefined,
    slack: slackToken ? { token: slackToken, apiUrl: config.SLACK_API_URL ?? 'https://slack.com/api/' } : undefined,
    mailDir: mailDirOf(config.DATA_DIR),
    defaults: {
      operatorEmails: config.NOTIFIER_OPERATOR_EMAILS ?? [],
      slackChannel: config.NOTIFIER_SLACK_CHANNEL,
      operatorLocale: config.NOTIFIER_OPERATOR_LOCALE ?? 'en',
      timeZone: config.NOTIFIER_TIME_ZONE ?? 'UTC',
      digestTime: config.NOTIFIER_DIGEST_TIME ?? '08:00',
    },
    tenants,
    digestAtRiskDays: config.NOTIFIER_DIGEST_AT_RISK_DAYS ?? 7,
    retry: { baseMs: config.NOTIFIER_RETRY_BASE_MS ?? 30_000, maxMs: config.NOTIFIER_RETRY_MAX_MS ?? 3_600_000, maxAttempts: config.NOTIFIER_MAX_ATTEMPTS ?? 8 },
    dispatchIntervalMs: config.NOTIFIER_DISPATCH_INTERVAL_MS ?? 0,
    batchSize: 50,
    retention: retentionSettingsFrom(config),
    referenceKey: requestReferenceKeysFrom(config)[0],
    portalUrl: config.PORTAL_URL,
  };
}

/** A tenant's operator destinations and formats: its own settings over the service-wide ones. */
export function operatorSettingsOf(settings: NotifierSettings, tenantId: string): OperatorSettings {
  const own = settings.tenants[tenantId] ?? {};
  return {
    emails: own.operatorEmails ?? settings.defaults.operatorEmails,
    slackChannel: own.slackChannel ?? settings.defaults.slackChannel,
    locale: own.operatorLocale ?? settings.defaults.operatorLocale,
    timeZone: own.timeZone ?? settings.defaults.timeZone,
    digestTime: own.digestTime ?? settings.defaults.digestTime,
  };
}
