import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EncryptedStorage } from './encrypted-storage';
import { FileStorage, UnavailableStorage } from './file-storage';
import { MemoryBlobStore } from './memory-blob-store';
import { StorageModule } from './storage.module';

@Injectable()
class EvidenceService {
  constructor(readonly files: FileStorage) {}
}

@Module({ providers: [EvidenceService] })
class FeatureModule {}

describe('StorageModule', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsar-storage-module-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const serviceWith = async (module: ReturnType<typeof StorageModule.forRoot>) => {
    const app = await Test.createTestingModule({ imports: [module, FeatureModule] }).compile();
    return { files: app.get(EvidenceService).files, close: () => app.close() };
  };

  it('injects an EncryptedStorage built from the settings into any module', async () => {
    const { files, close } = await serviceWith(StorageModule.forRoot({ config: { DATA_DIR: dir, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') } }));
    expect(files).toBeInstanceOf(EncryptedStorage);
    expect(files.available).toBe(true);
    await close();
  });

  it('injects an UnavailableStorage when no master key is configured, and starts', async () => {
    const { files, close } = await serviceWith(StorageModule.forRoot({ config: { DATA_DIR: dir } }));
    expect(files).toBeInstanceOf(UnavailableStorage);
    expect(files.available).toBe(false);
    await close();
  });

  it('uses the development key when asked', async () => {
    const { files, close } = await serviceWith(StorageModule.forRoot({ config: { DATA_DIR: dir }, devMasterKey: true }));
    expect(files.available).toBe(true);
    await close();
  });

  it('injects a storage a test hands in', async () => {
    const storage = new EncryptedStorage(new MemoryBlobStore(), randomBytes(32));
    const { files, close } = await serviceWith(StorageModule.forRoot({ storage }));
    expect(files).toBe(storage);
    await close();
  });
});
