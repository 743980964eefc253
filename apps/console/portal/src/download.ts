/**
 * A download's bytes as they arrive: the page reads the answer's body chunk by chunk to draw its progress, then hands
 * the whole to the browser to save (main.ts). Content-Length gives the total; without it the progress is indeterminate.
 */
const CONTENT_LENGTH = /^[0-9]{1,15}$/;

/** The total from Content-Length; null when absent or not a length. */
export function contentLengthOf(header: string | null): number | null {
  const value = header?.trim() ?? '';
  return CONTENT_LENGTH.test(value) ? Number(value) : null;
}

/** Reads `body` to its end, calling `onProgress` with the bytes received so far after each chunk. */
export async function readWithProgress(body: ReadableStream<Uint8Array>, onProgress: (received: number) => void): Promise<Uint8Array[]> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(value);
      received += value.byteLength;
      onProgress(received);
    }
  } finally {
    reader.releaseLock();
  }
}
