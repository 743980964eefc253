import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { FileStorage } from './file-storage';
import { type StorageConfig, storageFromConfig, type StorageFromConfigOptions } from './storage-config';

export type StorageModuleOptions =
  /** Built from the service's settings (see storageFromConfig). */
  | ({ config: StorageConfig } & StorageFromConfigOptions)
  /** A storage made by the caller (tests). */
  | { storage: FileStorage };

/**
 * Provides `FileStorage` to every module of a service: an EncryptedStorage
 * built from the settings, or an UnavailableStorage when no master key is
 * configured (the service starts, and answers 503 where it needs files). A
 * tenant key that could not be rewrapped on first use during a master key
 * rotation is logged as a warning.
 */
@Module({})
export class StorageModule {
  static forRoot(options: StorageModuleOptions): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      providers: [{ provide: FileStorage, useFactory: () => storageOf(options) }],
      exports: [FileStorage],
    };
  }
}

async function storageOf(options: StorageModuleOptions): Promise<FileStorage> {
  if ('storage' in options) return options.storage;
  const { config, ...rest } = options;
  const logger = new Logger('storage');
  const onRewrapFailure = (tenantId: string, e: unknown) =>
    logger.warn(
      `The data key of tenant ${tenantId} was read with a previous master key but could not be rewrapped under the current one (the next use tries again): ${e instanceof Error ? e.message : String(e)}`,
    );
  const storage = await storageFromConfig(config, { onRewrapFailure, ...rest });
  if (!storage.available) logger.warn(`File storage is not available: ${storage.unavailableReason}; requests that need files answer 503`);
  return storage;
}
