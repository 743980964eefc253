import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import { IntegrityError } from './errors';

/**
 * The bytes of an encrypted file and of a wrapped tenant key (docs/storage.md).
 *
 * File: a 54-byte header, then the plaintext in chunks of `chunkSize` bytes
 * (the last one 1..chunkSize bytes), each AES-256-GCM ciphertext followed by
 * its 16-byte tag.
 *
 *   offset  length  field
 *   0       4       magic "DSEF"
 *   4       1       format version (1)
 *   5       1       flags (0)
 *   6       4       chunk size, uint32 big-endian
 *   10      16      id of the tenant data key that encrypted the file
 *   26      16      salt: file key = HKDF-SHA256(data key, salt, "dsar-storage/v1/file-key")
 *   42      12      base nonce: nonce of chunk i = base nonce XOR i (uint32, in its last 4 bytes)
 *
 * AAD of chunk i = header ‖ i (uint32 BE) ‖ final flag (1 byte) ‖ tenant id ‖ 0x00 ‖ object key:
 * a changed header, a chunk moved, dropped or appended, a truncated file and a
 * file copied under another name or tenant all fail authentication.
 */
export const FILE_MAGIC = Buffer.from('DSEF', 'ascii');
export const FILE_FORMAT_VERSION = 1;
export const HEADER_LENGTH = 54;
export const TAG_LENGTH = 16;
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
/** Chunk sizes a header may name; a larger one is refused before any buffer of that size is made. */
export const MIN_CHUNK_SIZE = 16;
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
/** Chunk indexes are 32-bit in the nonce and AAD. */
export const MAX_CHUNKS = 2 ** 32;

const KEY_ID_LENGTH = 16;
const SALT_LENGTH = 16;
const NONCE_LENGTH = 12;
const FILE_KEY_INFO = Buffer.from('dsar-storage/v1/file-key', 'ascii');

export interface FileHeader {
  chunkSize: number;
  keyId: Buffer;
  salt: Buffer;
  baseNonce: Buffer;
  /** The header's bytes, part of every chunk's AAD. */
  bytes: Buffer;
}

export function newFileHeader(keyId: Buffer, chunkSize: number): FileHeader {
  const bytes = Buffer.alloc(HEADER_LENGTH);
  FILE_MAGIC.copy(bytes, 0);
  bytes.writeUInt8(FILE_FORMAT_VERSION, 4);
  bytes.writeUInt8(0, 5);
  bytes.writeUInt32BE(chunkSize, 6);
  keyId.copy(bytes, 10);
  randomBytes(SALT_LENGTH).copy(bytes, 26);
  randomBytes(NONCE_LENGTH).copy(bytes, 42);
  return parseFileHeader(bytes, '(new)');
}

/** Reads a header; IntegrityError when it is not one this version wrote (its content is authenticated by the chunks). */
export function parseFileHeader(bytes: Buffer, objectKey: string): FileHeader {
  if (bytes.length !== HEADER_LENGTH || !bytes.subarray(0, 4).equals(FILE_MAGIC)) throw new IntegrityError(`${objectKey}: not an encrypted file (bad header)`);
  if (bytes.readUInt8(4) !== FILE_FORMAT_VERSION || bytes.readUInt8(5) !== 0) throw new IntegrityError(`${objectKey}: unknown file format version or flags`);
  const chunkSize = bytes.readUInt32BE(6);
  if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) throw new IntegrityError(`${objectKey}: chunk size ${chunkSize} out of range`);
  const copy = Buffer.from(bytes);
  return { chunkSize, keyId: copy.subarray(10, 26), salt: copy.subarray(26, 42), baseNonce: copy.subarray(42, 54), bytes: copy };
}

/** The layout of a file's body, from the blob's length: how many chunks, and the plaintext size. */
export function bodyLayout(blobSize: number, chunkSize: number, objectKey: string): { chunks: number; plaintextSize: number } {
  const body = blobSize - HEADER_LENGTH;
  const cipherChunk = chunkSize + TAG_LENGTH;
  const chunks = Math.ceil(body / cipherChunk);
  const lastCipher = body - (chunks - 1) * cipherChunk;
  // Every file has at least one chunk of at least one byte (empty payloads are refused).
  if (body <= 0 || lastCipher <= TAG_LENGTH) throw new IntegrityError(`${objectKey}: truncated encrypted file`);
  return { chunks, plaintextSize: body - chunks * TAG_LENGTH };
}

/** The per-file key: the tenant's data key stretched with the file's salt, so no two files share a key or a nonce sequence. */
export function fileKey(dataKey: KeyObject, header: FileHeader): KeyObject {
  const derived = Buffer.from(hkdfSync('sha256', dataKey, header.salt, FILE_KEY_INFO, 32));
  const key = createSecretKey(derived);
  derived.fill(0);
  return key;
}

/** Encrypts and authenticates the chunks of one file, in order. */
export class ChunkSealer {
  private readonly aadPrefix: Buffer;
  private readonly aadSuffix: Buffer;

  constructor(
    /** The file key (a KeyObject: its bytes never show), also handed to a sealing thread. */
    readonly key: KeyObject,
    private readonly header: FileHeader,
    tenantId: string,
    objectKey: string,
  ) {
    this.aadPrefix = header.bytes;
    this.aadSuffix = Buffer.from(`${tenantId}\u0000${objectKey}`, 'utf8');
  }

  seal(index: number, final: boolean, plaintext: Buffer): [Buffer, Buffer] {
    const cipher = createCipheriv('aes-256-gcm', this.key, this.nonce(index), { authTagLength: TAG_LENGTH });
    cipher.setAAD(this.aad(index, final));
    const body = cipher.update(plaintext);
    const rest = cipher.final();
    const sealed = rest.length > 0 ? Buffer.concat([body, rest]) : body;
    return [sealed, cipher.getAuthTag()];
  }

  /** The plaintext of chunk `index`; IntegrityError when the chunk (or anything its AAD binds) was altered. */
  open(index: number, final: boolean, chunk: Buffer, objectKey: string): Buffer {
    if (chunk.length <= TAG_LENGTH) throw new IntegrityError(`${objectKey}: chunk ${index} is truncated`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, this.nonce(index), { authTagLength: TAG_LENGTH });
    decipher.setAAD(this.aad(index, final));
    decipher.setAuthTag(chunk.subarray(chunk.length - TAG_LENGTH));
    const body = decipher.update(chunk.subarray(0, chunk.length - TAG_LENGTH));
    try {
      const rest = decipher.final();
      return rest.length > 0 ? Buffer.concat([body, rest]) : body;
    } catch {
      throw new IntegrityError(`${objectKey}: chunk ${index} failed authentication (altered, moved or truncated)`);
    }
  }

  /** The nonce of chunk `index`. */
  nonce(index: number): Buffer {
    return nonceOf(this.header.baseNonce, index);
  }

  /** The AAD of chunk `index`, the last one when `final`. */
  aad(index: number, final: boolean): Buffer {
    const position = Buffer.alloc(5);
    position.writeUInt32BE(index, 0);
    position.writeUInt8(final ? 1 : 0, 4);
    return Buffer.concat([this.aadPrefix, position, this.aadSuffix]);
  }
}

function nonceOf(baseNonce: Buffer, index: number): Buffer {
  const nonce = Buffer.from(baseNonce);
  nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ index) >>> 0, 8);
  return nonce;
}

/**
 * A tenant's data key wrapped by a master key (89 bytes, the blob `keys/<tenant>.key`):
 *
 *   offset  length  field
 *   0       4       magic "DSWK"
 *   4       1       format version (1)
 *   5       8       id of the master key that wrapped it (see masterKeyId)
 *   13      16      id of the data key (named in each file's header)
 *   29      12      nonce
 *   41      32      the data key, AES-256-GCM encrypted with the master key
 *   73      16      tag; AAD = bytes 0..28 ‖ tenant id
 *
 * The master key id names the key to unwrap with among the current and the
 * previous master keys (rotation: a key wrapped by a previous one is rewrapped
 * under the current one, its id and every file unchanged), and lets an
 * unknown master key be reported as such rather than as tampering.
 */
export const WRAPPED_KEY_MAGIC = Buffer.from('DSWK', 'ascii');
export const WRAPPED_KEY_LENGTH = 89;
const WRAP_FORMAT_VERSION = 1;
export const MASTER_KEY_LENGTH = 32;
const MASTER_KEY_ID_INFO = 'dsar-storage/v1/master-key-id';

/** A fingerprint of a master key (16 hex digits): names it in wrapped keys and messages without revealing it. */
export function masterKeyId(masterKey: KeyObject): Buffer {
  return createHmac('sha256', masterKey).update(MASTER_KEY_ID_INFO).digest().subarray(0, 8);
}

export interface DataKey {
  id: Buffer;
  key: KeyObject;
}

export function newDataKey(): { dataKey: DataKey; raw: Buffer } {
  const raw = randomBytes(32);
  return { dataKey: { id: randomBytes(KEY_ID_LENGTH), key: createSecretKey(raw) }, raw };
}

export function wrapDataKey(masterKey: KeyObject, tenantId: string, id: Buffer, raw: Buffer): Buffer {
  const out = Buffer.alloc(WRAPPED_KEY_LENGTH);
  WRAPPED_KEY_MAGIC.copy(out, 0);
  out.writeUInt8(WRAP_FORMAT_VERSION, 4);
  masterKeyId(masterKey).copy(out, 5);
  id.copy(out, 13);
  const nonce = randomBytes(NONCE_LENGTH);
  nonce.copy(out, 29);
  const cipher = createCipheriv('aes-256-gcm', masterKey, nonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.concat([out.subarray(0, 29), Buffer.from(tenantId, 'utf8')]));
  Buffer.concat([cipher.update(raw), cipher.final()]).copy(out, 41);
  cipher.getAuthTag().copy(out, 73);
  return out;
}

/** The data key id of a wrapped key, read without unwrapping; undefined when the blob is not a wrapped key. */
export function wrappedKeyId(wrapped: Buffer): Buffer | undefined {
  if (wrapped.length !== WRAPPED_KEY_LENGTH || !wrapped.subarray(0, 4).equals(WRAPPED_KEY_MAGIC)) return undefined;
  return Buffer.from(wrapped.subarray(13, 29));
}

/** Master keys by their id in hex (see masterKeyId). */
export type MasterKeyRing = ReadonlyMap<string, KeyObject>;

/** `wrappedBy`: the id (hex) of the master key that wrapped the data key. */
/** The id (hex) of the master key that wrapped a wrapped key, read without unwrapping; undefined when the blob is not a wrapped key. */
export function wrappingKeyId(wrapped: Buffer): string | undefined {
  if (wrapped.length !== WRAPPED_KEY_LENGTH || !wrapped.subarray(0, 4).equals(WRAPPED_KEY_MAGIC)) return undefined;
  return wrapped.subarray(5, 13).toString('hex');
}

export type UnwrapResult = { ok: true; dataKey: DataKey; wrappedBy: string } | { ok: false; wrappedBy: string };

/**
 * The data key, unwrapped with the master key of `masterKeys` that wrapped it, or (not ok) the id of the master key
 * that wrapped it when none of them did; IntegrityError when the blob is malformed or altered.
 */
export function unwrapDataKey(masterKeys: MasterKeyRing, tenantId: string, wrapped: Buffer): UnwrapResult {
  if (wrapped.length !== WRAPPED_KEY_LENGTH || !wrapped.subarray(0, 4).equals(WRAPPED_KEY_MAGIC) || wrapped.readUInt8(4) !== WRAP_FORMAT_VERSION) {
    throw new IntegrityError(`The stored data key of tenant ${tenantId} is malformed`);
  }
  const wrappedBy = wrapped.subarray(5, 13).toString('hex');
  const masterKey = masterKeys.get(wrappedBy);
  if (!masterKey) return { ok: false, wrappedBy };
  const decipher = createDecipheriv('aes-256-gcm', masterKey, wrapped.subarray(29, 41), { authTagLength: TAG_LENGTH });
  decipher.setAAD(Buffer.concat([wrapped.subarray(0, 29), Buffer.from(tenantId, 'utf8')]));
  decipher.setAuthTag(wrapped.subarray(73, 89));
  let raw: Buffer;
  try {
    raw = Buffer.concat([decipher.update(wrapped.subarray(41, 73)), decipher.final()]);
  } catch {
    throw new IntegrityError(`The stored data key of tenant ${tenantId} failed authentication`);
  }
  const key = createSecretKey(raw);
  raw.fill(0);
  return { ok: true, dataKey: { id: Buffer.from(wrapped.subarray(13, 29)), key }, wrappedBy };
}
