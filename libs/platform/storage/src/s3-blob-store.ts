import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertBlobKey, assertBlobPrefix, isBlobKey, s3KeyPrefix } from './blob-key';
import { assertByteRange, type BlobStat, type BlobStore, type ByteRange } from './blob-store';
import { BlobNotFoundError, RangeNotSatisfiableError } from './errors';

export { s3KeyPrefix } from './blob-key';

/** The part size of multipart uploads by default: 8 MiB (S3 allows 5 MiB to 5 GiB, at most 10,000 parts: 78 GiB per object at 8 MiB). */
export const S3_DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** S3's smallest part (all but the last). */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
/**
 * Parts uploaded at once by default. A write holds at most about (queue size + 4) parts: those in flight, the one being
 * filled, the one being cut from it and what the SDK still references (48 MiB at the defaults, measured by the tests).
 */
export const S3_DEFAULT_QUEUE_SIZE = 2;
/** DeleteObjects takes at most this many keys per call (and ListObjectsV2 returns at most as many per page). */
const DELETE_BATCH = 1000;
/**
 * How long to wait for a connection to S3. No timeout is set on requests themselves: a download may pause for as long
 * as its reader applies backpressure, and an idle-socket timeout would cut it.
 */
const CONNECTION_TIMEOUT_MS = 10_000;
/** Tries of a conditional PutObject that S3 answered 409 (a concurrent conditional write was in flight). */
const CONFLICT_ATTEMPTS = 5;

export interface S3BlobStoreOptions {
  /** The bucket; it must exist (the driver never creates or configures buckets). */
  bucket: string;
  /**
   * A folder inside the bucket that holds every object of the store, for a bucket shared with other data or
   * environments: `dsar/prod` or `dsar/prod/` (a valid blob prefix; the trailing `/` is added). Default: none.
   */
  prefix?: string;
  /** A client made by the caller (tests, custom middleware). Otherwise one is made from the settings below. */
  client?: S3Client;
  /** Default `us-east-1`. */
  region?: string;
  /** An S3-compatible server's URL (MinIO, Ceph, moto, ...); unset for AWS S3. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`: most S3-compatible servers need it. */
  forcePathStyle?: boolean;
  /** Explicit credentials (tests). Unset: the AWS SDK's default chain (environment, web identity, profile, instance role). */
  credentials?: S3ClientConfig['credentials'];
  /** Multipart part size in bytes, 5 MiB or more; default 8 MiB. */
  partSize?: number;
  /** Parts uploaded in parallel per write; default 2. */
  queueSize?: number;
}

type S3Failure = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (e: unknown): number | undefined => (e as S3Failure)?.$metadata?.httpStatusCode;
const nameOf = (e: unknown): string | undefined => (e as S3Failure)?.name ?? (e as S3Failure)?.Code;

/** A missing object (GetObject answers NoSuchKey, HeadObject a bare 404); a missing bucket is a configuration error, not that. */
function isNotFound(e: unknown): boolean {
  const name = nameOf(e);
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(e) === 404;
}

/**
 * Blobs as objects of an S3 bucket (AWS S3 or an S3-compatible server), one
 * object per key under an optional folder of the bucket.
 *
 * - `write` streams the source with a multipart upload (`@aws-sdk/lib-storage`
 *   `Upload`, 8 MiB parts, 2 in flight: memory stays under 48 MiB whatever the
 *   size; a source shorter than one part is a single PutObject). S3 publishes
 *   an object only when PutObject or CompleteMultipartUpload succeeds, so a
 *   write is atomic; on a failure the multipart upload is aborted, so no part
 *   is left behind (a bucket lifecycle rule that aborts incomplete multipart
 *   uploads covers a process killed mid-upload).
 * - `writeIfAbsent` sends `If-None-Match: *` (PutObject, or
 *   CompleteMultipartUpload for a source longer than a part): S3 refuses it
 *   with 412 when an object exists, atomically among concurrent writers.
 * - `replaceIfUnchanged` reads the object (GetObject) and, when it holds the
 *   expected bytes, puts the replacement with `If-Match: <its ETag>`: S3
 *   refuses it with 412 when the object changed since, 404 when it was
 *   deleted.
 * - `read` is a GetObject, with `Range: bytes=start-end` for a range; the
 *   response streams the one version S3 chose when it answered.
 * - `deletePrefix` lists the folder (ListObjectsV2) and deletes it in batches
 *   of 1000 (DeleteObjects); `list` pages through ListObjectsV2.
 *
 * Unlike a file system, S3 lets `a` and `a/b` exist together; the encrypted
 * storage never makes both.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  /** The folder of the store inside the bucket: '' or a prefix ending in `/`. */
  readonly keyPrefix: string;
  readonly partSize: number;
  readonly queueSize: number;
  private readonly ownsClient: boolean;

  constructor(options: S3BlobStoreOptions) {
    if (!options.bucket) throw new Error('S3BlobStore needs a bucket');
    this.bucket = options.bucket;
    this.keyPrefix = s3KeyPrefix(options.prefix);
    this.partSize = options.partSize ?? S3_DEFAULT_PART_SIZE;
    this.queueSize = options.queueSize ?? S3_DEFAULT_QUEUE_SIZE;
    if (!Number.isSafeInteger(this.partSize) || this.partSize < S3_MIN_PART_SIZE) throw new RangeError(`The S3 part size must be an integer of at least ${S3_MIN_PART_SIZE} bytes`);
    if (!Number.isSafeInteger(this.queueSize) || this.queueSize < 1) throw new RangeError('The S3 upload queue size must be a positive integer');
    this.ownsClient = !options.client;
    this.client =
      options.client ??
      new S3Client({
        region: options.region ?? 'us-east-1',
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        forcePathStyle: options.forcePathStyle ?? false,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS },
      });
  }

  /** Closes the client's connections when the store made the client itself. */
  destroy(): void {
    if (this.ownsClient) this.client.destroy();
  }

  async write(key: string, source: Readable): Promise<void> {
    assertBlobKey(key);
    await this.upload(key, source);
  }

  async writeIfAbsent(key: string, source: Readable): Promise<boolean> {
    assertBlobKey(key);
    const head = await readHead(source, this.partSize);
    if (head.rest) {
      // Longer than a part: a multipart upload whose completion carries the condition.
      try {
        await this.upload(key, head.rest, { IfNoneMatch: '*' });
        return true;
      } catch (e) {
        if (statusOf(e) === 412) return false;
        throw e;
      }
    }
    // One PutObject from memory: it can be retried after a 409, which S3 answers while another conditional write of the key is in flight.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: head.bytes, IfNoneMatch: '*' }));
        return true;
      } catch (e) {
        if (statusOf(e) === 412) return false;
        if (statusOf(e) !== 409 || attempt >= CONFLICT_ATTEMPTS) throw e;
        if (await this.stat(key)) return false;
        await sleep(50 * attempt);
      }
    }
  }

  async replaceIfUnchanged(key: string, expected: Buffer, replacement: Buffer): Promise<boolean> {
    assertBlobKey(key);
    for (let attempt = 1; ; attempt++) {
      const etag = await this.etagIfHolding(key, expected);
      if (etag === undefined) return false;
      try {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: replacement, IfMatch: etag }));
        return true;
      } catch (e) {
        // 412: changed since it was read; 404: deleted since.
        if (statusOf(e) === 412 || isNotFound(e)) return false;
        if (statusOf(e) !== 409 || attempt >= CONFLICT_ATTEMPTS) throw e;
        await sleep(50 * attempt);
      }
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertBlobKey(key);
    if (range) assertByteRange(range);
    let body: Readable;
    let contentRange: string | undefined;
    let length: number | undefined;
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      body = out.Body as Readable;
      contentRange = out.ContentRange;
      length = out.ContentLength;
    } catch (e) {
      if (isNotFound(e)) throw new BlobNotFoundError(key);
      if (range && statusOf(e) === 416) {
        const stat = await this.stat(key);
        if (!stat) throw new BlobNotFoundError(key);
        throw new RangeNotSatisfiableError(range.start, stat.size);
      }
      throw e;
    }
    if (range && !contentRange) {
      // The whole object came back (some servers ignore a range on an empty object): only a range that starts past the end gets here.
      const size = length ?? 0;
      if (range.start >= size) {
        body.destroy();
        throw new RangeNotSatisfiableError(range.start, size);
      }
      if (range.start !== 0 || range.end < size - 1) {
        body.destroy();
        throw new Error(`The S3 server ignored the range of ${key}`);
      }
    }
    return body;
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    assertBlobKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0 };
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    // S3 answers 204 whether or not the object existed.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    let batch: string[] = [];
    for await (const objectKey of this.listObjectKeys(this.objectKey(prefix))) {
      batch.push(objectKey);
      if (batch.length === DELETE_BATCH) {
        await this.deleteObjects(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.deleteObjects(batch);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix, { allowEmpty: true });
    for await (const objectKey of this.listObjectKeys(this.objectKey(prefix))) {
      const key = objectKey.slice(this.keyPrefix.length);
      if (isBlobKey(key)) yield key; // objects others put in the folder under names no blob key has
    }
  }

  /** The ETag of the object when it holds exactly `expected`; undefined when it is absent or holds other bytes. */
  private async etagIfHolding(key: string, expected: Buffer): Promise<string | undefined> {
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
    const body = out.Body as Readable;
    if (out.ContentLength !== undefined && out.ContentLength !== expected.length) {
      body.destroy();
      return undefined;
    }
    const parts: Buffer[] = [];
    let length = 0;
    for await (const part of body) {
      parts.push(part as Buffer);
      // Leaving the loop (longer than expected after all) destroys the body.
      if ((length += (part as Buffer).length) > expected.length) return undefined;
    }
    if (!Buffer.concat(parts, length).equals(expected)) return undefined;
    if (!out.ETag) throw new Error(`The S3 server sent no ETag for ${key}: it cannot replace the object conditionally`);
    return out.ETag;
  }

  /** The object key of a blob key (or prefix) in the bucket. */
  objectKey(key: string): string {
    return `${this.keyPrefix}${key}`;
  }

  private async *listObjectKeys(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteObjects(objectKeys: string[]): Promise<void> {
    const out = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objectKeys.map((Key) => ({ Key })), Quiet: true } }));
    const failed = out.Errors ?? [];
    if (failed.length > 0) {
      const first = failed[0];
      throw new Error(`S3 could not delete ${failed.length} object(s) of ${this.bucket}, the first ${JSON.stringify(first.Key)}: ${first.Code ?? 'error'} ${first.Message ?? ''}`.trim());
    }
  }

  /**
   * Streams `source` to the key: one PutObject when it fits in a part, else a
   * multipart upload, which `Upload` aborts when a part, the completion or the
   * source fails. Rejects with the source's own error when the source failed,
   * and destroys the source on any failure.
   */
  private async upload(key: string, source: Readable, extra: { IfNoneMatch?: string } = {}): Promise<void> {
    let sourceError: unknown;
    const onError = (e: unknown) => {
      sourceError ??= e;
    };
    source.on('error', onError);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: source, ...extra },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      source.destroy();
      throw sourceError ?? e;
    } finally {
      source.off('error', onError);
    }
  }
}

/**
 * Reads `source` until it ends or holds more than `limit` bytes. Ended: its bytes. Otherwise a stream that replays
 * what was read and then the rest of `source`, so nothing is lost and nothing more is buffered.
 */
async function readHead(source: Readable, limit: number): Promise<{ bytes: Buffer; rest?: undefined } | { bytes?: undefined; rest: Readable }> {
  const iterator = source.iterator({ destroyOnReturn: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    while (size <= limit) {
      const next = await iterator.next();
      if (next.done) return { bytes: Buffer.concat(chunks, size) };
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (e) {
    source.destroy();
    throw e;
  }
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      yield* chunks.splice(0);
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
      }
    } finally {
      await iterator.return?.();
    }
  }
  const rest = Readable.from(replay(), { objectMode: false });
  // The caller destroys `rest` on failure; the original goes with it.
  rest.once('close', () => {
    if (!source.readableEnded) source.destroy();
  });
  return { rest };
}
