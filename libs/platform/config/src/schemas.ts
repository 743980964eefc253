import { z } from 'zod';
import { internalAuthFields, requireInternalAuthKey } from './internal-auth';

/** Shared pieces of the per-app config schemas. Each app composes its own schema from these. */

export const booleanFromEnv = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * A setting that holds JSON (per-tenant overrides and the like), `unset` (default `{}`) when unset: parsed here, so
 * that `.pipe()` checks its shape; text that is not JSON is a config problem saying `message`.
 */
export const jsonFromEnv = (message: string, unset = '{}') =>
  z
    .string()
    .default(unset)
    .transform((s: string, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    });

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

export const commonFields = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` (one pino object a line, for a log collector) or `pretty` (one short line a record, for a terminal). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** Size limit of JSON bodies, e.g. 1mb. */
  HTTP_BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'a size such as 512kb or 1mb')
    .default('1mb'),
  /** How far V8's old generation grows past what a full GC left, in per cent, before the next one (0: V8's own choice; ADR 0031). */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(50),
};

export const httpFields = {
  HOST: z.string().default('0.0.0.0'),
  PORT: port,
};

export const databaseFields = {
  DB_DRIVER: z.enum(['postgres', 'pglite']).default('pglite'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  DATA_DIR: z.string().default('./.data'),
  DB_POOL_SIZE: positiveInt.default(10),
  /** run: apply pending migrations at startup; check: refuse to start while any are pending. */
  DB_MIGRATIONS: z.enum(['run', 'check']).optional(),
};

export const busFields = {
  BUS_DRIVER: z.enum(['kafka', 'memory']).default('memory'),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'a comma list of host:port')
    .optional(),
  KAFKA_CLIENT_ID: z.string().default('dsar'),
  /** Prepended to every topic name, to share one cluster between environments. */
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-z0-9._-]*$/, 'letters, digits, dot, dash, underscore')
    .default(''),
  /**
   * Prefix of consumer group ids; each service appends its own name. Absent: the topic prefix followed by `dsar`, so
   * that environments sharing a cluster by KAFKA_TOPIC_PREFIX share no consumer group.
   */
  KAFKA_GROUP_PREFIX: z.string().optional(),
  /**
   * How long the broker keeps a consumer that stopped heartbeating in its group; also how long consumption stalls
   * when a consumer rejoins after a broker restart. At least the broker's group.min.session.timeout.ms (6 s).
   */
  KAFKA_SESSION_TIMEOUT_MS: positiveInt.min(6000).max(300_000).default(10_000),
  OUTBOX_POLL_MS: positiveInt.default(1000),
  OUTBOX_BATCH_SIZE: positiveInt.max(1000).default(100),
  CONSUMER_MAX_ATTEMPTS: positiveInt.max(20).default(5),
  CONSUMER_RETRY_BACKOFF_MS: positiveInt.default(200),
};

type WithDbAndBus = {
  DB_DRIVER: 'postgres' | 'pglite';
  DATABASE_URL?: string;
  BUS_DRIVER: 'kafka' | 'memory';
  KAFKA_BROKERS?: string;
};

/** Cross-field rules: the distributed drivers need their connection settings. */
export function requireDriverSettings(cfg: WithDbAndBus, ctx: z.RefinementCtx): void {
  if (cfg.DB_DRIVER === 'postgres' && !cfg.DATABASE_URL) {
    ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'required when DB_DRIVER=postgres' });
  }
  if (cfg.BUS_DRIVER === 'kafka' && !cfg.KAFKA_BROKERS) {
    ctx.addIssue({ code: 'custom', path: ['KAFKA_BROKERS'], message: 'required when BUS_DRIVER=kafka' });
  }
}

/**
 * Options for `.superRefine(requireDriverSettings, everyProblem)`: zod skips a
 * refinement once a field has failed, which would hide a missing DATABASE_URL
 * behind a bad PORT; this runs it anyway so the operator sees every problem at once.
 */
export const everyProblem: z.core.$ZodSuperRefineParams = {
  when: (payload) => typeof payload.value === 'object' && payload.value !== null,
};

/** Cross-field rules of a domain service process: its drivers' settings, and the internal auth key. */
export function requireServiceSettings(cfg: WithDbAndBus & { INTERNAL_AUTH_KEY?: string; INTERNAL_AUTH_KEY_FILE?: string }, ctx: z.RefinementCtx): void {
  requireDriverSettings(cfg, ctx);
  requireInternalAuthKey(cfg, ctx);
}

/** The schema of a domain service app: HTTP, database and bus, and the key that checks internal identity. */
export function serviceConfigSchema(defaultPort: number) {
  return z
    .object({
      ...commonFields,
      ...httpFields,
      PORT: port.default(defaultPort),
      ...databaseFields,
      ...busFields,
      ...internalAuthFields,
    })
    .superRefine(requireServiceSettings, everyProblem);
}

export type ServiceConfig = z.infer<ReturnType<typeof serviceConfigSchema>>;
