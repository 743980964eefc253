import { z } from 'zod';
import { databaseFields, everyProblem, loadConfigOrExit } from '@dsar/platform/config';
import { type BlobStore, EncryptedStorage, FilesystemBlobStore, requireStorageSettings, storageFields, storageFromConfig } from '@dsar/platform/storage';
import { S3BlobStore } from '@dsar/platform/storage/s3';

/**
 * `npm run storage:rewrap`: the explicit step of a storage master key rotation (docs/storage.md#master-key-rotation).
 * Rewraps under STORAGE_MASTER_KEY every tenant key of the store that a key of STORAGE_PREVIOUS_MASTER_KEYS wrapped;
 * no file is read or rewritten. It reads the storage settings of the service whose store it is (STORAGE_DRIVER,
 * STORAGE_DIR or DATA_DIR, the S3_* settings, the master keys or their _FILE forms), so run it where that service
 * runs, once per store (verification's and fulfilment-delivery's). Prints the counts; exits 1 when a key failed,
 * 64 on a bad argument, 78 on a configuration problem.
 *
 *   npm run storage:rewrap [-- --tenant <id> ...]
 *
 * `--tenant <id>`: a tenant id whose key blob is named by a hash (an id of more than about 100 characters once
 * escaped), which the store cannot tell; the run names such keys among its failures.
 */
const schema = z.object({ DATA_DIR: databaseFields.DATA_DIR, ...storageFields }).superRefine(requireStorageSettings, everyProblem);

const USAGE = 'usage: storage-rewrap.ts [--tenant <id>]...';

/** The tenant ids given with --tenant; undefined when an argument is not understood. */
function tenantIdsFrom(args: string[]): string[] | undefined {
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const inline = /^--tenant=(.+)$/s.exec(args[i]);
    if (inline) ids.push(inline[1]);
    else if (args[i] === '--tenant' && i + 1 < args.length) ids.push(args[++i]);
    else return undefined;
  }
  return ids;
}

function describeStore(store: BlobStore): string {
  if (store instanceof FilesystemBlobStore) return `directory ${store.rootDir}`;
  if (store instanceof S3BlobStore) return `s3://${store.bucket}/${store.keyPrefix}`;
  return 'memory (nothing is kept)';
}

async function main(): Promise<number> {
  const tenantIds = tenantIdsFrom(process.argv.slice(2));
  if (!tenantIds) {
    process.stderr.write(`${USAGE}\n`);
    return 64;
  }
  const config = loadConfigOrExit('storage:rewrap', schema);
  const storage = await storageFromConfig(config);
  if (!(storage instanceof EncryptedStorage)) {
    process.stderr.write(`storage:rewrap: ${storage.unavailableReason}\n`);
    return 78;
  }
  try {
    const previous = storage.previousMasterKeyIds;
    process.stdout.write(
      `store: ${describeStore(storage.store)}\nmaster key: ${storage.masterKeyId}\nprevious master keys: ${previous.length > 0 ? previous.join(', ') : 'none (STORAGE_PREVIOUS_MASTER_KEYS is not set)'}\n`,
    );
    const report = await storage.rewrapTenantKeys({ tenantIds });
    for (const failure of report.failures) {
      process.stderr.write(`failed: ${failure.blobKey}${failure.tenantId === undefined ? '' : ` (tenant ${JSON.stringify(failure.tenantId)})`}: ${failure.reason}\n`);
    }
    process.stdout.write(`rewrapped: ${report.rewrapped}\nalready current: ${report.alreadyCurrent}\nfailed: ${report.failed}\n`);
    return report.failed > 0 ? 1 : 0;
  } finally {
    if (storage.store instanceof S3BlobStore) storage.store.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`storage:rewrap failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
