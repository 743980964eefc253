import { contentLengthOf, readWithProgress } from './download';

function streamOf(chunks: Uint8Array[], failAfter?: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && sent === failAfter) return controller.error(new TypeError('network error'));
      if (sent === chunks.length) return controller.close();
      controller.enqueue(chunks[sent++]);
    },
  });
}

describe('a download as it arrives', () => {
  it('reads every chunk and tells the bytes received after each', async () => {
    const seen: number[] = [];
    const chunks = await readWithProgress(streamOf([new Uint8Array(3), new Uint8Array(5), new Uint8Array(2)]), (n) => seen.push(n));
    expect(chunks.map((c) => c.byteLength)).toEqual([3, 5, 2]);
    expect(seen).toEqual([3, 8, 10]);
  });

  it('fails as the stream fails (a connection broken in the middle)', async () => {
    const seen: number[] = [];
    await expect(readWithProgress(streamOf([new Uint8Array(4), new Uint8Array(4)], 1), (n) => seen.push(n))).rejects.toThrow('network error');
    expect(seen).toEqual([4]);
  });

  it('takes its total from Content-Length, and none from anything else', () => {
    expect(contentLengthOf('1048576')).toBe(1_048_576);
    expect(contentLengthOf(' 0 ')).toBe(0);
    for (const header of [null, '', '-1', '1e6', '12abc', '1'.repeat(16)]) expect({ header, total: contentLengthOf(header) }).toEqual({ header, total: null });
  });
});
