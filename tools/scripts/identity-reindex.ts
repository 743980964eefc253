import { z } from 'zod';
import { databaseFields, ensureDevIdentityIndexKey, everyProblem, identityIndexKeyFields, identityIndexKeysFrom, loadConfigOrExit } from '@dsar/platform/config';
import { dataSourceOptions, openDataSource, schemaNameFor, UnitOfWork } from '@dsar/platform/persistence';
import { DEFAULT_DUPLICATE_WINDOW_DAYS } from '@dsar/contracts';
import { IdentityBlindIndex, lifecycleClockService, RequestIdentities } from '@dsar/services/lifecycle-clock';

/**
 * `npm run identity:reindex`: the backfill of an identity index key rotation, or of a change of the normalisation
 * rules (docs/identity.md#rotating-the-key). Writes again, under the current IDENTITY_INDEX_KEY (the first listed) and
 * rules, the index rows of every request that has rows under another key or rules, or none though it carries
 * identities; a search finds them under either key meanwhile. Reads lifecycle-clock's database settings (DB_DRIVER,
 * DATABASE_URL or DATA_DIR) and its key, so run it where lifecycle-clock runs; with PGlite (`npm start`), while the
 * system is stopped, and without a key it takes the development key of DATA_DIR as `npm start` does. Batches of
 * `--batch` requests (default 500), each in its own transaction, so that it can be stopped and run again. Prints the
 * counts and the rows still under other keys (0: the older keys may be removed); exits 64 on a bad argument, 78 on a
 * configuration problem.
 *
 *   npm run identity:reindex [-- --batch <n>]
 */
const schema = z.object({ ...databaseFields, ...identityIndexKeyFields }).superRefine((config, ctx) => {
  if (config.DB_DRIVER === 'postgres' && !config.DATABASE_URL) ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'required with DB_DRIVER=postgres' });
  if (config.IDENTITY_INDEX_KEY && config.IDENTITY_INDEX_KEY_FILE) {
    ctx.addIssue({ code: 'custom', path: ['IDENTITY_INDEX_KEY_FILE'], message: 'give IDENTITY_INDEX_KEY or IDENTITY_INDEX_KEY_FILE, not both' });
  }
}, everyProblem);

const USAGE = 'usage: identity-reindex.ts [--batch <1-5000>]';

/** The batch size of `--batch <n>` (default 500); undefined when an argument is not understood. */
function batchSizeFrom(args: string[]): number | undefined {
  if (args.length === 0) return 500;
  const value = args.length === 1 ? /^--batch=(\d{1,4})$/.exec(args[0])?.[1] : args.length === 2 && args[0] === '--batch' ? /^(\d{1,4})$/.exec(args[1])?.[1] : undefined;
  const size = value === undefined ? NaN : Number(value);
  return size >= 1 && size <= 5000 ? size : undefined;
}

async function main(): Promise<number> {
  const batch = batchSizeFrom(process.argv.slice(2));
  if (batch === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  const config = loadConfigOrExit('identity:reindex', schema);
  let keys = identityIndexKeysFrom(config);
  if (keys.length === 0) {
    if (config.DB_DRIVER === 'postgres') {
      process.stderr.write('identity:reindex: IDENTITY_INDEX_KEY (or IDENTITY_INDEX_KEY_FILE) is required: the keys lifecycle-clock runs with, the current one first\n');
      return 78;
    }
    keys = [(await ensureDevIdentityIndexKey(config.DATA_DIR)).key];
  }
  const ds = await openDataSource(
    await dataSourceOptions({
      driver: config.DB_DRIVER,
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: 2,
      schema: schemaNameFor(lifecycleClockService.name),
      entities: lifecycleClockService.entities ?? [],
      migrations: lifecycleClockService.migrations ?? [],
      applicationName: 'dsar-identity-reindex',
    }),
    'check',
  );
  try {
    const index = new IdentityBlindIndex(keys);
    const identities = new RequestIdentities(new UnitOfWork(ds), index, { keys, duplicateWindowDays: DEFAULT_DUPLICATE_WINDOW_DAYS });
    process.stdout.write(`current key: ${index.currentKeyId}\nother keys: ${index.keyIds.length > 1 ? index.keyIds.slice(1).join(', ') : 'none'}\n`);
    let after: string | null = null;
    let seen = 0;
    let rewritten = 0;
    for (;;) {
      const done = await identities.reindexBatch(after, batch);
      if (done.last === null) break;
      after = done.last;
      seen += done.seen;
      rewritten += done.rewritten;
    }
    const orphans = await identities.dropOrphans();
    const left = await identities.staleRows();
    process.stdout.write(`requests: ${seen}\nrewritten: ${rewritten}\nrows of no request dropped: ${orphans}\nrows under other keys or rules: ${left}\n`);
    if (left === 0 && index.keyIds.length > 1) process.stdout.write('every row is under the current key: the other keys may be removed from IDENTITY_INDEX_KEY\n');
    return 0;
  } finally {
    await ds.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`identity:reindex failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
