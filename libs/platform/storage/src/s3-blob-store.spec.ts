import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BlobNotFoundError, InvalidKeyError, RangeNotSatisfiableError } from './errors';
import { S3_MIN_PART_SIZE, S3BlobStore, s3KeyPrefix } from './s3-blob-store';
import { INVALID_BLOB_KEYS } from './testing/blob-store.contract';
import { sourceOf } from './testing/streams';

/*
 * What the driver makes of S3's answers, with a scripted client (no server):
 * the behaviour against a real S3-compatible server is in
 * s3-blob-store.int-spec.ts.
 */
type AnyCommand = Parameters<S3Client['send']>[0];

/** An S3 error as the SDK throws it. */
function s3Error(name: string, status: number): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
}

/** A client whose `send` answers with `answer(command)`, recording every command. */
function scripted(answer: (command: AnyCommand) => unknown): { client: S3Client; sent: AnyCommand[] } {
  const sent: AnyCommand[] = [];
  const client = {
    send: async (command: AnyCommand) => {
      sent.push(command);
      return answer(command);
    },
    destroy: () => undefined,
  } as unknown as S3Client;
  return { client, sent };
}

const input = (command: AnyCommand) => command.input as Record<string, unknown>;

describe('S3BlobStore', () => {
  it('checks its options', () => {
    const { client } = scripted(() => ({}));
    expect(() => new S3BlobStore({ bucket: '', client })).toThrow('needs a bucket');
    expect(() => new S3BlobStore({ bucket: 'b', client, partSize: S3_MIN_PART_SIZE - 1 })).toThrow(RangeError);
    expect(() => new S3BlobStore({ bucket: 'b', client, queueSize: 0 })).toThrow(RangeError);
    expect(() => new S3BlobStore({ bucket: 'b', client, prefix: '../x' })).toThrow(InvalidKeyError);
    expect(new S3BlobStore({ bucket: 'b', client })).toMatchObject({ partSize: 8 * 1024 * 1024, queueSize: 2, keyPrefix: '' });
  });

  it.each([
    [undefined, ''],
    ['', ''],
    ['/', ''],
    ['dsar', 'dsar/'],
    ['dsar/prod/', 'dsar/prod/'],
    ['/dsar/prod', 'dsar/prod/'],
  ])('takes the key prefix %p as %p', (prefix, want) => {
    expect(s3KeyPrefix(prefix)).toBe(want);
  });

  it('refuses invalid keys before sending anything', async () => {
    const { client, sent } = scripted(() => ({}));
    const store = new S3BlobStore({ bucket: 'b', client });
    for (const key of INVALID_BLOB_KEYS) {
      await expect(store.write(key, sourceOf(Buffer.from('x')))).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.writeIfAbsent(key, sourceOf(Buffer.from('x')))).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.replaceIfUnchanged(key, Buffer.from('x'), Buffer.from('y'))).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.read(key)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidKeyError);
    }
    await expect(store.deletePrefix('no-slash')).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(store.read('k', { start: 3, end: 2 })).rejects.toBeInstanceOf(RangeError);
    expect(sent).toEqual([]);
  });

  it('maps a missing object to BlobNotFoundError and undefined, under the key prefix', async () => {
    const { client, sent } = scripted((command) => {
      throw command instanceof HeadObjectCommand ? s3Error('NotFound', 404) : s3Error('NoSuchKey', 404);
    });
    const store = new S3BlobStore({ bucket: 'b', client, prefix: 'env' });
    await expect(store.read('a/b')).rejects.toEqual(new BlobNotFoundError('a/b'));
    expect(await store.stat('a/b')).toBeUndefined();
    expect(sent.map(input)).toEqual([
      { Bucket: 'b', Key: 'env/a/b' },
      { Bucket: 'b', Key: 'env/a/b' },
    ]);
  });

  it('lets a missing bucket through as the configuration error it is', async () => {
    const { client } = scripted(() => {
      throw s3Error('NoSuchBucket', 404);
    });
    await expect(new S3BlobStore({ bucket: 'b', client }).read('k')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('asks for inclusive ranges, and answers 416 with the object size', async () => {
    const { client, sent } = scripted((command) => {
      if (command instanceof GetObjectCommand) throw s3Error('InvalidRange', 416);
      if (command instanceof HeadObjectCommand) return { ContentLength: 10 };
      throw new Error('unexpected');
    });
    const store = new S3BlobStore({ bucket: 'b', client });
    await expect(store.read('k', { start: 10, end: 20 })).rejects.toEqual(new RangeNotSatisfiableError(10, 10));
    expect(input(sent[0])).toEqual({ Bucket: 'b', Key: 'k', Range: 'bytes=10-20' });
  });

  it('creates if absent with If-None-Match, taking 412 as "already there" and retrying a 409 conflict', async () => {
    const answers: unknown[] = [s3Error('ConditionalRequestConflict', 409), {}, s3Error('PreconditionFailed', 412)];
    const { client, sent } = scripted((command) => {
      if (command instanceof HeadObjectCommand) throw s3Error('NotFound', 404);
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    });
    const store = new S3BlobStore({ bucket: 'b', client });
    expect(await store.writeIfAbsent('keys/t.key', sourceOf(Buffer.from('wrapped key')))).toBe(true);
    expect(await store.writeIfAbsent('keys/t.key', sourceOf(Buffer.from('other key')))).toBe(false);
    const puts = sent.filter((c) => c instanceof PutObjectCommand).map(input);
    expect(puts).toHaveLength(3);
    for (const put of puts) expect(put).toMatchObject({ Bucket: 'b', Key: 'keys/t.key', IfNoneMatch: '*' });
    expect((puts[1].Body as Buffer).toString()).toBe('wrapped key');
  });

  it('swaps with If-Match on the ETag of the bytes it compared, taking 412 and 404 as "changed" and retrying a 409', async () => {
    const object = (text: string, etag = '"e1"') => ({ Body: Readable.from([Buffer.from(text)]), ContentLength: Buffer.byteLength(text), ETag: etag });
    const answers: unknown[] = [
      object('wrapped'),
      s3Error('ConditionalRequestConflict', 409),
      object('wrapped', '"e2"'),
      {}, // swapped after a conflict
      object('wrapped'),
      s3Error('PreconditionFailed', 412), // changed between the read and the put
      object('wrapped'),
      s3Error('NoSuchKey', 404), // deleted between the read and the put
      object('other!!'), // other bytes of the same length: no put
      object('longer bytes'), // another length: no put
      s3Error('NoSuchKey', 404), // absent: no put
    ];
    const { client, sent } = scripted(() => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next;
    });
    const store = new S3BlobStore({ bucket: 'b', client, prefix: 'env' });
    const swap = () => store.replaceIfUnchanged('keys/t.key', Buffer.from('wrapped'), Buffer.from('rewrapped'));
    expect(await swap()).toBe(true);
    expect(await swap()).toBe(false);
    expect(await swap()).toBe(false);
    expect(await swap()).toBe(false);
    expect(await swap()).toBe(false);
    expect(await swap()).toBe(false);
    expect(answers).toEqual([]);
    const puts = sent.filter((c) => c instanceof PutObjectCommand).map(input);
    expect(puts.map((put) => put.IfMatch)).toEqual(['"e1"', '"e2"', '"e1"', '"e1"']);
    for (const put of puts) expect(put).toMatchObject({ Bucket: 'b', Key: 'env/keys/t.key', Body: Buffer.from('rewrapped') });
  });

  it('lists page by page under the prefix, and deletes in batches of 1000', async () => {
    const objects = Array.from({ length: 2500 }, (_, i) => `env/f/k${i}`);
    const { client, sent } = scripted((command) => {
      if (command instanceof ListObjectsV2Command) {
        const from = Number(input(command).ContinuationToken ?? 0);
        const page = objects.slice(from, from + 1000);
        const next = from + page.length;
        return { Contents: page.map((Key) => ({ Key })), IsTruncated: next < objects.length, NextContinuationToken: String(next) };
      }
      if (command instanceof DeleteObjectsCommand) return {};
      throw new Error('unexpected');
    });
    const store = new S3BlobStore({ bucket: 'b', client, prefix: 'env/' });
    const keys: string[] = [];
    for await (const key of store.list('f/')) keys.push(key);
    expect(keys).toHaveLength(2500);
    expect(keys[0]).toBe('f/k0');
    sent.length = 0;
    await store.deletePrefix('f/');
    const deletes = sent.filter((c) => c instanceof DeleteObjectsCommand).map((c) => (input(c).Delete as { Objects: unknown[] }).Objects.length);
    expect(deletes).toEqual([1000, 1000, 500]);
    expect(input(sent[0])).toMatchObject({ Bucket: 'b', Prefix: 'env/f/' });
  });

  it('fails a prefix delete that S3 answered with per-key errors', async () => {
    const { client } = scripted((command) => {
      if (command instanceof ListObjectsV2Command) return { Contents: [{ Key: 'p/x' }], IsTruncated: false };
      return { Errors: [{ Key: 'p/x', Code: 'AccessDenied', Message: 'Access Denied' }] };
    });
    await expect(new S3BlobStore({ bucket: 'b', client }).deletePrefix('p/')).rejects.toThrow(/could not delete 1 object.*p\/x.*AccessDenied/);
  });
});
