import type { PGlite } from '@electric-sql/pglite';
import { type JobLogger, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import type { SessionLock } from './async-mutex';

/** How often the embedded database looks for tables to vacuum and analyze. */
export const PGLITE_MAINTENANCE_INTERVAL_MS = 60_000;

/**
 * The tables autovacuum would pick with its default settings, and what each needs: a VACUUM when its dead rows
 * passed 50 + 20 % of the table (autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor), an ANALYZE when the
 * rows changed since its statistics passed 50 + 10 % (the analyze ones) or it was never analyzed and holds rows (a
 * database written while the process was down).
 */
const DUE_TABLES = `
  SELECT name, needs_vacuum AS "vacuum", needs_analyze AS "analyze" FROM (
    SELECT format('%I.%I', s.schemaname, s.relname) AS name,
           s.n_dead_tup > 50 + 0.2 * GREATEST(c.reltuples, 0) AS needs_vacuum,
           s.n_mod_since_analyze > 50 + 0.1 * GREATEST(c.reltuples, 0) OR (c.reltuples < 0 AND pg_relation_size(c.oid) > 0) AS needs_analyze,
           s.n_dead_tup + s.n_mod_since_analyze AS changed
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid) t
   WHERE needs_vacuum OR needs_analyze
   ORDER BY changed DESC`;

/**
 * Rows ANALYZE samples per column, over 100: 3,000 rows rather than 30,000, so that analyzing a large table is a
 * short stall; the statistics still tell an index range from a whole table, which is all the services' queries need.
 */
const STATISTICS_TARGET = 10;

/** The database and the lock of its one session, as PgliteHost holds them. */
export interface PgliteSession {
  readonly db: PGlite;
  readonly lock: SessionLock;
}

/**
 * What autovacuum does for PostgreSQL, for the embedded database, which runs none (ADR 0043): every interval, and
 * once at start, `VACUUM` of each table whose dead rows passed autovacuum's default threshold and `ANALYZE` of each
 * whose changes since its last statistics did, one table per batch that yields. Without it an embedded database never has
 * statistics, so the planner reads a whole table to find a page of it, and its indexes keep an entry for every
 * row version ever written: the bounded batches of the periodic jobs would each read everything.
 */
export class PgliteMaintenance {
  private readonly job: PeriodicJob<string[]>;

  constructor(
    private readonly session: PgliteSession,
    log: JobLogger,
    intervalMs = PGLITE_MAINTENANCE_INTERVAL_MS,
  ) {
    this.job = new PeriodicJob({ service: 'embedded', name: 'pglite-vacuum', intervalMs, log }, (run) => this.vacuumDue(run));
  }

  start(): void {
    this.job.start({ runAtStart: true });
  }

  /** One round now (tests): the tables it vacuumed. */
  run(): Promise<string[]> {
    return this.job.runNow();
  }

  /** Cancels the schedule and waits for the table under way. */
  stop(): Promise<void> {
    return this.job.stop();
  }

  private async vacuumDue(run: JobRun): Promise<string[]> {
    const due = await this.alone(async (db) => (await db.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE_TABLES)).rows);
    const done: string[] = [];
    const pacer = run.pacer();
    for (const table of due) {
      if (!(await pacer.pause())) break;
      // The name comes from the catalog, quoted by format('%I'); VACUUM and ANALYZE take no parameters. The target is
      // the session's (PGlite has one): set for this statement alone, under the session's lock.
      const statement = table.vacuum ? `VACUUM${table.analyze ? ' (ANALYZE)' : ''} ${table.name}` : `ANALYZE ${table.name}`;
      await this.alone(async (db) => {
        await db.exec(`SET default_statistics_target = ${STATISTICS_TARGET}`);
        try {
          await db.exec(statement);
        } finally {
          await db.exec('RESET default_statistics_target');
        }
      });
      done.push(table.name);
    }
    return done;
  }

  /** Runs `work` holding the session, between two units of work (VACUUM cannot run inside a transaction). */
  private async alone<T>(work: (db: PGlite) => Promise<T>): Promise<T> {
    const release = await this.session.lock.acquire();
    try {
      return await work(this.session.db);
    } finally {
      release();
    }
  }
}
