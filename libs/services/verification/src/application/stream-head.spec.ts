import { PassThrough, Readable } from 'node:stream';
import { peekHead } from './stream-head';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('peekHead', () => {
  it('gives the first bytes of a long stream and leaves every byte in it', async () => {
    const source = new PassThrough();
    const file = Buffer.from('%PDF-1.7\n' + 'x'.repeat(100));
    source.end(file);
    const { head, body } = await peekHead(source, 16);
    expect(head.equals(file.subarray(0, 16))).toBe(true);
    expect((await bytesOf(body)).equals(file)).toBe(true);
  });

  it('gathers the head from small chunks as they arrive', async () => {
    const source = new PassThrough();
    const file = Buffer.from('0123456789abcdefghij');
    const peeked = peekHead(source, 16);
    for (let i = 0; i < file.length; i += 3) {
      source.write(file.subarray(i, i + 3));
      await new Promise((resolve) => setImmediate(resolve));
    }
    source.end();
    const { head, body } = await peeked;
    expect(head.toString()).toBe('0123456789abcdef');
    expect((await bytesOf(body)).equals(file)).toBe(true);
  });

  it('keeps a file shorter than the head whole: the stream ended while it was read', async () => {
    const file = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]);
    const source = new PassThrough();
    source.end(file);
    const { head, body } = await peekHead(source, 16);
    expect(head.equals(file)).toBe(true);
    expect((await bytesOf(body)).equals(file)).toBe(true);
  });

  it('an empty stream has an empty head and an empty body', async () => {
    const source = new PassThrough();
    source.end();
    const { head, body } = await peekHead(source, 16);
    expect(head.length).toBe(0);
    expect((await bytesOf(body)).length).toBe(0);
  });
});
