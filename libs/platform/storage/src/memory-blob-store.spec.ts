import { MemoryBlobStore } from './memory-blob-store';
import { describeBlobStoreContract } from './testing/blob-store.contract';
import { describeEncryptedStorageContract } from './testing/encrypted-storage.contract';

describeBlobStoreContract('MemoryBlobStore', { make: () => new MemoryBlobStore() });
describeEncryptedStorageContract('MemoryBlobStore', { make: () => new MemoryBlobStore() });
