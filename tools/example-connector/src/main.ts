import { Command, Option } from 'commander';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { jsonLogger, kafkaFeed, type LogLevel, pullFeed, runConnector, type TaskFeed } from '@dsar/connector-sdk';
import { SAMPLE_CUSTOMERS, setupShop, shopHandler } from './shop';

/**
 * The example connector (docs/data-systems.md, "The example connector"): answers the tasks of a registered data
 * system from a sample shop database, in push mode (the task topic, Kafka) or pull mode (the pending list, HTTP).
 *
 *   npm run example-connector -- --seed                 create the shop's tables and sample customers, then exit
 *   npm run example-connector -- --mode pull [--seed]   answer tasks, listing them over HTTP
 *   npm run example-connector -- --mode push [--seed]   answer tasks as their events arrive on Kafka
 */

function env(name: string): string | undefined;
function env(name: string, fallback: string): string;
function env(name: string, fallback?: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}

function required(name: string): string {
  const value = env(name);
  if (value === undefined) {
    process.stderr.write(`${name} is not set (see docs/data-systems.md, "The example connector")\n`);
    process.exit(64);
  }
  return value;
}

async function main(argv: string[]): Promise<void> {
  const program = new Command('example-connector')
    .description('Answers DSAR access and erasure tasks from a sample PostgreSQL shop of customers and orders.')
    .addOption(new Option('--mode <mode>', 'how tasks arrive: push (Kafka task topic) or pull (HTTP pending list); none: set up and exit').choices(['push', 'pull']))
    .option('--setup', "create the shop's schema and tables if missing")
    .option('--seed', 'also add the sample customers (implies --setup)')
    .option('--delay-ms <ms>', 'wait this long in each task before answering (to watch a claimed task, or stop a connector mid-task)', '0')
    .addHelpText(
      'after',
      `
Environment:
  DSAR_BASE_URL         the API's base URL, default http://127.0.0.1:8080/api/v1
  DSAR_CONNECTOR_KEY    an API key of the tenant with tasks:work (role connector)
  DSAR_SYSTEM_KEY       the registered system this connector answers for, default example-shop
  DSAR_TENANT_ID        push: the key's tenant (its events are the ones taken), default "default"
  EXAMPLE_DATABASE_URL  the shop's PostgreSQL, default postgres://dsar:dsar@127.0.0.1:5432/dsar
  EXAMPLE_SCHEMA        the shop's schema, default example_shop
  KAFKA_BROKERS         push: default 127.0.0.1:9092
  KAFKA_TOPIC_PREFIX    push: the deployment's topic prefix, default none
  CONNECTOR_GROUP_ID    push: the consumer group, default <prefix>connector-<system key>
  CONNECTOR_WORKER      the worker name tasks show as claimedBy, default <host>:<pid>
  CONNECTOR_LEASE_SECONDS  the lease of each claim (10-3600), default 300
  PULL_INTERVAL_MS      pull: the wait between listings when nothing is pending, default 10000
  LOG_LEVEL             debug, info (default), warn or error`,
    );
  program.parse(argv);
  const options = program.opts<{ mode?: 'push' | 'pull'; setup?: boolean; seed?: boolean; delayMs: string }>();
  const level = env('LOG_LEVEL', 'info');
  const log = jsonLogger((['debug', 'info', 'warn', 'error'].includes(level) ? level : 'info') as LogLevel);
  const schema = env('EXAMPLE_SCHEMA', 'example_shop');
  const pool = new Pool({ connectionString: env('EXAMPLE_DATABASE_URL', 'postgres://dsar:dsar@127.0.0.1:5432/dsar'), max: 4 });
  try {
    if (options.setup || options.seed) {
      await setupShop(pool, schema, { seed: options.seed ? SAMPLE_CUSTOMERS : [] });
      log.info('shop tables ready', { schema, seeded: Boolean(options.seed) });
    }
    if (!options.mode) return;
    const systemKey = env('DSAR_SYSTEM_KEY', 'example-shop');
    const delayMs = Number(options.delayMs);
    const worker = env('CONNECTOR_WORKER');
    const handler = shopHandler(pool, schema, { performedBy: `example-connector ${worker ?? process.pid}` });
    const stop = new AbortController();
    const connector = await runConnector({
      baseUrl: env('DSAR_BASE_URL', 'http://127.0.0.1:8080/api/v1'),
      apiKey: required('DSAR_CONNECTOR_KEY'),
      systemKey,
      worker,
      feed: feedOf(options.mode, systemKey),
      handler: async (task, context) => {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return handler(task, context);
      },
      leaseSeconds: Number(env('CONNECTOR_LEASE_SECONDS', '300')),
      signal: stop.signal,
      log,
      userAgent: 'example-connector',
    });
    // The first signal finishes the task at hand; a second one abandons it (its lease lapses and it is queued again).
    let signals = 0;
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      process.on(name, () => {
        signals += 1;
        if (signals === 1) stop.abort();
        else void connector.stop({ abandon: true });
      });
    }
    await connector.done;
  } finally {
    await pool.end();
  }
}

function feedOf(mode: 'push' | 'pull', systemKey: string): TaskFeed {
  if (mode === 'pull') return pullFeed({ intervalMs: Number(env('PULL_INTERVAL_MS', '10000')) });
  const prefix = env('KAFKA_TOPIC_PREFIX', '');
  const kafka = new Kafka({ clientId: `example-connector-${systemKey}`, brokers: env('KAFKA_BROKERS', '127.0.0.1:9092').split(','), logLevel: logLevel.WARN });
  return kafkaFeed({ kafka, topicPrefix: prefix, groupId: env('CONNECTOR_GROUP_ID', `${prefix}connector-${systemKey}`), tenantId: env('DSAR_TENANT_ID', 'default') });
}

main(process.argv).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`example-connector: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
