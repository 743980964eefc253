import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { kafkaBroker, kafkaBrokers } from '@dsar/platform/testing';
import { REPO_ROOT } from './util';

/**
 * Stopping and starting the run's Kafka broker for an outage, through deploy/local/infra.sh (`kafka-stop`,
 * `kafka-start`), which reads DSAR_INFRA_DIR, KAFKA_PORT and KAFKA_CONTROLLER_PORT from the environment: a second
 * broker started with `DSAR_INFRA_DIR=/tmp/x KAFKA_PORT=19092 KAFKA_CONTROLLER_PORT=19093 infra.sh kafka-start` is
 * stopped the same way. A broker is stopped only when that script runs it at the address the run uses.
 */

const run = promisify(execFile);

/** The broker `infra.sh status` reports up, as `kafka: up on <address> (pid <pid>)`. */
export function brokerOfStatus(output: string): string | undefined {
  for (const line of output.split('\n')) {
    const m = /^kafka: up on (\S+) \(pid \d+\)$/.exec(line.trim());
    if (m) return m[1];
  }
  return undefined;
}

export interface BrokerFacts {
  /** DSAR_INFRA=external: the run uses infrastructure it does not manage. */
  external: boolean;
  /** DSAR_INFRA_DIR as set (not infra.sh's default). */
  infraDir?: string;
  /** The brokers the run's services use (KAFKA_BROKERS). */
  runBrokers: string;
  /** The broker infra.sh runs, from its status; undefined when it runs none. */
  infraBroker?: string;
}

/** Why the run's broker must not be stopped, or undefined when it may. */
export function outageRefusal(f: BrokerFacts): string | undefined {
  if (f.external && !f.infraDir) {
    return `with DSAR_INFRA=external the run does not manage the broker at ${f.runBrokers}: name the deploy/local/infra.sh environment that runs it (DSAR_INFRA_DIR, KAFKA_PORT, KAFKA_CONTROLLER_PORT) to let the benchmark stop it`;
  }
  const where = `deploy/local/infra.sh${f.infraDir ? ` (DSAR_INFRA_DIR=${f.infraDir})` : ''}`;
  if (!f.infraBroker) return `${where} runs no broker`;
  if (f.infraBroker !== f.runBrokers) return `the run's broker ${f.runBrokers} is not the one ${where} runs (${f.infraBroker})`;
  return undefined;
}

/** The facts of this run's environment: `infra.sh status` answers 1 when any of its servers is down, and prints each. */
export async function brokerFacts(): Promise<BrokerFacts> {
  const env = process.env;
  let status: string;
  try {
    status = (await run('bash', [join(REPO_ROOT, 'deploy/local/infra.sh'), 'status'], { cwd: REPO_ROOT, timeout: 60_000 })).stdout;
  } catch (e) {
    status = String((e as { stdout?: unknown }).stdout ?? '');
  }
  return { external: env.DSAR_INFRA === 'external', infraDir: env.DSAR_INFRA_DIR || undefined, runBrokers: kafkaBrokers(), infraBroker: brokerOfStatus(status) };
}

/** The broker of the run, stopped and started again; `restore` starts it if it was left stopped (an interrupted run). */
export class BrokerOutage {
  private down = false;

  /** Stops the broker, or throws without touching it when `outageRefusal` says it must not be stopped. */
  async stop(): Promise<void> {
    const refusal = outageRefusal(await brokerFacts());
    if (refusal) throw new Error(`the broker is not stopped: ${refusal}`);
    this.down = true;
    await kafkaBroker('stop');
  }

  async start(): Promise<void> {
    await kafkaBroker('start');
    this.down = false;
  }

  async restore(): Promise<void> {
    if (this.down) await this.start();
  }
}
