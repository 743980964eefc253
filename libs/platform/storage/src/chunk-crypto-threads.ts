import type { KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Threads that seal and hash the chunks of large files being stored, and open those of large files being read
 * (ADR 0034), so that the event loop only moves bytes in and out: SHA-256 and AES-256-GCM of a 1 GiB artifact cost
 * one core about 1.5 s, which on the event loop also held back the HTTP that carries the bytes. One file's chunks all
 * go to one thread, in order (the hash is of the whole file); several files share the threads.
 *
 * At most MAX_THREADS threads run, started on first use; a thread without work for IDLE_MS ends, and none keeps the
 * process alive. A thread that dies fails the files it held, and the next file starts another.
 */

const WORKER_FILE = join(__dirname, 'chunk-crypto.worker.cjs');

/** One per core, two at most: a file keeps one thread busy, and the event loop and the HTTP need the other core. */
const MAX_THREADS = Math.max(1, Math.min(2, availableParallelism()));
/** A thread without a file for this long ends; the next large file starts another (about 30 ms). */
const IDLE_MS = 30_000;

/** A file's chunks, sealed off the event loop. */
export interface SealingJob {
  /**
   * Hashes and seals the first `length` bytes of `plaintext` with this nonce and AAD, after the chunks given before:
   * resolves to the ciphertext and its tag. `plaintext` is moved to the thread: the caller no longer has its bytes
   * (its length is 0 afterwards) and takes a new buffer from `plainBuffer`.
   */
  seal(plaintext: Buffer, length: number, iv: Buffer, aad: Buffer): Promise<[Buffer, Buffer]>;
  /** A buffer of `size` bytes for the next chunk's plaintext: one the thread gave back, or a new one. */
  plainBuffer(size: number): Buffer;
  /** The SHA-256 (hex) of every byte sealed, once all are; the job is then over. */
  digest(): Promise<string>;
  /** Gives the file up: the thread forgets it, and any seal or digest still awaited rejects. */
  abort(): void;
}

/** A file's chunks, opened off the event loop. */
export interface OpeningJob {
  /**
   * Opens a chunk (its ciphertext followed by its tag, the first `length` bytes of `sealed`) with this nonce and AAD:
   * resolves to its plaintext, rejects with ChunkRefusedError when it fails authentication. `sealed` is moved to the
   * thread when it is the whole of its memory (its length is 0 afterwards), copied otherwise.
   */
  open(sealed: Buffer, length: number, iv: Buffer, aad: Buffer): Promise<Buffer>;
  /** The file is read (or given up): the thread forgets it, and any open still awaited rejects. */
  abort(): void;
}

/** A chunk that failed authentication (altered, moved or truncated). */
export class ChunkRefusedError extends Error {
  constructor() {
    super('the chunk failed authentication');
    this.name = 'ChunkRefusedError';
  }
}

interface Reply {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** An ArrayBuffer holding exactly the first `length` bytes of `bytes`: its own memory when that is all of it, else a copy. */
function movable(bytes: Buffer, length: number): ArrayBuffer {
  const memory = bytes.buffer as ArrayBuffer;
  if (bytes.byteOffset === 0 && bytes.byteLength === memory.byteLength) return memory;
  const copy = new ArrayBuffer(length);
  new Uint8Array(copy).set(bytes.subarray(0, length));
  return copy;
}

/** The main side of a job: its replies awaited, in the order asked for. */
class Job implements SealingJob, OpeningJob {
  readonly replies: Reply[] = [];
  readonly spare: ArrayBuffer[] = [];
  done = false;

  constructor(
    readonly id: number,
    private readonly thread: CryptoThread,
  ) {}

  seal(plaintext: Buffer, length: number, iv: Buffer, aad: Buffer): Promise<[Buffer, Buffer]> {
    const plain = movable(plaintext, length);
    // The nonce and AAD are small Buffers, often views of Node's shared pool: copies of their own bytes go, not the pool.
    return this.ask<[Buffer, Buffer]>({ type: 'seal', id: this.id, plain, length, iv: new Uint8Array(iv), aad: new Uint8Array(aad) }, [plain]);
  }

  open(sealed: Buffer, length: number, iv: Buffer, aad: Buffer): Promise<Buffer> {
    const bytes = movable(sealed, length);
    return this.ask<Buffer>({ type: 'open', id: this.id, sealed: bytes, length, iv: new Uint8Array(iv), aad: new Uint8Array(aad) }, [bytes]);
  }

  plainBuffer(size: number): Buffer {
    const reused = this.spare.pop();
    return Buffer.from(reused && reused.byteLength === size ? reused : new ArrayBuffer(size));
  }

  digest(): Promise<string> {
    return this.ask<string>({ type: 'end', id: this.id }, []).finally(() => this.finish());
  }

  abort(): void {
    if (this.done) return;
    this.thread.post({ type: 'abort', id: this.id }, []);
    this.fail(new Error('the file was given up'));
  }

  /** Fails every reply awaited and ends the job. */
  fail(error: Error): void {
    for (const reply of this.replies.splice(0)) reply.reject(error);
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.thread.jobEnded(this);
  }

  private ask<T>(message: object, transfer: ArrayBuffer[]): Promise<T> {
    if (this.done) return Promise.reject(new Error('the thread is done with this file'));
    const reply = new Promise<T>((resolve, reject) => this.replies.push({ resolve: resolve as (value: unknown) => void, reject }));
    this.thread.post(message, transfer);
    return reply;
  }
}

type ThreadMessage =
  | { type: 'sealed'; id: number; sealed: ArrayBuffer; tag: Uint8Array; plain: ArrayBuffer }
  | { type: 'opened'; id: number; plain: ArrayBuffer }
  | { type: 'refused'; id: number }
  | { type: 'digest'; id: number; sha256: string }
  | { type: 'failed'; id: number; message: string };

/** One worker thread and the jobs it holds. */
class CryptoThread {
  readonly jobs = new Map<number, Job>();
  private readonly worker: Worker;
  private idleTimer: NodeJS.Timeout | undefined;
  private over = false;

  constructor(private readonly onGone: (thread: CryptoThread) => void) {
    this.worker = new Worker(WORKER_FILE);
    this.worker.unref();
    this.worker.on('message', (message: ThreadMessage) => this.receive(message));
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', (code) => this.end(new Error(`the chunk thread exited (code ${code})`)));
  }

  start(id: number, key: KeyObject, hash: boolean): Job {
    clearTimeout(this.idleTimer);
    const job = new Job(id, this);
    this.jobs.set(id, job);
    this.post({ type: 'begin', id, key, hash }, []);
    return job;
  }

  post(message: object, transfer: ArrayBuffer[]): void {
    this.worker.postMessage(message, transfer);
  }

  jobEnded(job: Job): void {
    this.jobs.delete(job.id);
    if (this.jobs.size === 0 && !this.over) {
      this.idleTimer = setTimeout(() => this.retire(), IDLE_MS);
      this.idleTimer.unref();
    }
  }

  /** Ends the thread whatever it holds: its files fail. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }

  /** Ends an idle thread; it leaves the pool first, so that no file is given to a thread on its way out. */
  private retire(): void {
    if (this.jobs.size > 0 || this.over) return;
    this.over = true;
    this.onGone(this);
    void this.worker.terminate();
  }

  private receive(message: ThreadMessage): void {
    const job = this.jobs.get(message.id);
    if (!job) return; // aborted meanwhile
    if (message.type === 'failed') return job.fail(new Error(`the chunk thread failed: ${message.message}`));
    const reply = job.replies.shift();
    switch (message.type) {
      case 'sealed':
        job.spare.push(message.plain);
        reply?.resolve([Buffer.from(message.sealed), Buffer.from(message.tag.buffer, message.tag.byteOffset, message.tag.byteLength)]);
        break;
      case 'opened':
        reply?.resolve(Buffer.from(message.plain));
        break;
      case 'refused':
        reply?.reject(new ChunkRefusedError());
        break;
      case 'digest':
        reply?.resolve(message.sha256);
        break;
    }
  }

  /** The thread is gone (ended idle, crashed or failed to start): its jobs fail, and it takes no more. */
  private end(error: Error): void {
    if (this.over) return;
    this.over = true;
    clearTimeout(this.idleTimer);
    this.onGone(this);
    for (const job of [...this.jobs.values()]) job.fail(error);
  }
}

const threads: CryptoThread[] = [];
let nextJobId = 1;

/** Starts sealing a file with `key` (its file key). */
export function startSealing(key: KeyObject): SealingJob {
  return startJob(key, true);
}

/** Starts opening the chunks of a file with `key` (its file key). */
export function startOpening(key: KeyObject): OpeningJob {
  return startJob(key, false);
}

/** A job on the thread with the fewest files, or on a new one while there are fewer than MAX_THREADS. */
function startJob(key: KeyObject, hash: boolean): Job {
  let thread = threads.reduce<CryptoThread | undefined>((least, t) => (least === undefined || t.jobs.size < least.jobs.size ? t : least), undefined);
  if (thread === undefined || (thread.jobs.size > 0 && threads.length < MAX_THREADS)) {
    thread = new CryptoThread((gone) => threads.splice(threads.indexOf(gone) >>> 0, 1));
    threads.push(thread);
  }
  return thread.start(nextJobId++, key, hash);
}

/** Ends every thread now (the files they hold fail): for tests, and for a process that wants its threads gone. */
export async function stopChunkThreads(): Promise<void> {
  await Promise.all(threads.map((thread) => thread.stop()));
}

/** Threads running now, for tests. */
export function chunkThreadsRunning(): number {
  return threads.length;
}
