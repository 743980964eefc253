'use strict';
/**
 * The thread of chunk-crypto-threads.ts: seals (AES-256-GCM) and hashes (SHA-256) the chunks of the files being
 * stored, and opens those of the files being read, each file's chunks in the order they come. The caller computes
 * every nonce and AAD (envelope-format.ts): this file only applies them. Plain CommonJS, loaded as it is by
 * `new Worker` from the sources and from the build alike.
 *
 * Messages in:  {type: 'begin', id, key, hash}                  a file starts (key: the file's KeyObject; hash: whether
 *                                                               to hash what is sealed)
 *               {type: 'seal', id, plain, length, iv, aad}      a chunk: the first `length` bytes of `plain` (moved here)
 *               {type: 'open', id, sealed, length, iv, aad}     a chunk: the ciphertext and its tag, the first `length`
 *                                                               bytes of `sealed` (moved here)
 *               {type: 'end', id}                               the file is complete: its digest is wanted
 *               {type: 'abort', id}                             the file is given up, or read to its end
 * Messages out: {type: 'sealed', id, sealed, tag, plain}        the ciphertext (moved), the tag, `plain` moved back
 *               {type: 'opened', id, plain}                     the plaintext (moved)
 *               {type: 'refused', id}                           the chunk failed authentication
 *               {type: 'digest', id, sha256}                    hex
 *               {type: 'failed', id, message}                   the file's job is over
 */
const { parentPort } = require('node:worker_threads');
const { createCipheriv, createDecipheriv, createHash } = require('node:crypto');

const TAG_LENGTH = 16;
/** The files in hand, by id: their key and, when sealed, their running hash. */
const files = new Map();

/** An ArrayBuffer that holds exactly the bytes of `buffer` and nothing else, so that moving it moves nothing more. */
function ownArrayBuffer(buffer) {
  if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) return buffer.buffer;
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
}

function seal(file, message) {
  const plain = new Uint8Array(message.plain, 0, message.length);
  if (file.hash) file.hash.update(plain);
  const cipher = createCipheriv('aes-256-gcm', file.key, message.iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(message.aad);
  const body = cipher.update(plain);
  const rest = cipher.final();
  const sealed = ownArrayBuffer(rest.length > 0 ? Buffer.concat([body, rest]) : body);
  // A copy of its own: the tag may be a view of a larger buffer, which posting would copy whole.
  const tag = new Uint8Array(cipher.getAuthTag());
  parentPort.postMessage({ type: 'sealed', id: message.id, sealed, tag, plain: message.plain }, [sealed, message.plain]);
}

function open(file, message) {
  const sealed = Buffer.from(message.sealed, 0, message.length);
  const decipher = createDecipheriv('aes-256-gcm', file.key, message.iv, { authTagLength: TAG_LENGTH });
  decipher.setAAD(message.aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH));
  const body = decipher.update(sealed.subarray(0, sealed.length - TAG_LENGTH));
  let rest;
  try {
    rest = decipher.final();
  } catch {
    parentPort.postMessage({ type: 'refused', id: message.id });
    return;
  }
  const plain = ownArrayBuffer(rest.length > 0 ? Buffer.concat([body, rest]) : body);
  parentPort.postMessage({ type: 'opened', id: message.id, plain }, [plain]);
}

parentPort.on('message', (message) => {
  const file = files.get(message.id);
  try {
    switch (message.type) {
      case 'begin':
        files.set(message.id, { key: message.key, hash: message.hash ? createHash('sha256') : undefined });
        break;
      case 'seal':
        if (file) seal(file, message);
        break;
      case 'open':
        if (file) open(file, message);
        break;
      case 'end':
        if (!file) break;
        files.delete(message.id);
        parentPort.postMessage({ type: 'digest', id: message.id, sha256: file.hash ? file.hash.digest('hex') : '' });
        break;
      case 'abort':
        files.delete(message.id);
        break;
      default:
        throw new Error(`unknown message ${String(message.type)}`);
    }
  } catch (e) {
    files.delete(message.id);
    parentPort.postMessage({ type: 'failed', id: message.id, message: e instanceof Error ? e.message : String(e) });
  }
});
