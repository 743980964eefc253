import { AsyncResource } from 'node:async_hooks';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { buildConnector } from 'undici';

/**
 * Connections to the HTTP servers of this process without a socket (ADR 0032).
 *
 * When every service runs in one process (embedded mode), a call from one to another over loopback TCP costs both
 * sides a trip through the kernel: per MiB of a streamed file about 1.2 ms more CPU than handing the same bytes over
 * in memory (docs/performance.md). A server registered here (`serveInProcess`) is reached by the internal client
 * through a pair of in-memory streams instead: the same HTTP/1.1 on both ends (the server's parser, undici's
 * parser, the signed identity headers, limits, timeouts, backpressure), only the bytes go from one end to the other
 * by reference. The servers still listen on their ports; anything else reaching them goes over TCP.
 */

interface InProcessServer {
  readonly server: Server;
  /**
   * The async context the server's side of each connection runs in, taken when the server was registered (outside
   * any request): the handler of a call never sees the caller's async-local state, as over a socket it would not.
   */
  readonly scope: AsyncResource;
}

/** The registered servers, by `host:port` of their internal URL. */
const servers = new Map<string, InProcessServer>();

const keyOf = (hostname: string, port: string | number): string => `${hostname}:${port}`;

/**
 * Makes the internal client reach `server` in memory for calls to `url` (its `http://host:port`). Returns the
 * withdrawal, to run before the server closes: calls made after it go to the port, as calls from elsewhere do.
 */
export function serveInProcess(url: string, server: Server): () => void {
  const { hostname, port, protocol } = new URL(url);
  if (protocol !== 'http:') throw new Error(`in-process calls are plain HTTP, not ${protocol}`);
  const key = keyOf(hostname, port);
  const entry: InProcessServer = { server, scope: new AsyncResource('dsar.in-process-server') };
  servers.set(key, entry);
  return () => {
    if (servers.get(key) === entry) servers.delete(key);
  };
}

const overTcp = buildConnector({});

/**
 * undici's `connect`: a registered server gets an in-memory connection, any other address a TCP one as undici
 * makes it by default. A registered server that no longer listens refuses, as its closed port would.
 */
export const connectInProcessOrTcp: buildConnector.connector = (options, callback) => {
  const entry = options.protocol === 'http:' ? servers.get(keyOf(options.hostname, options.port)) : undefined;
  if (!entry) return overTcp(options, callback);
  const clientScope = new AsyncResource('dsar.in-process-client');
  process.nextTick(() => {
    if (!entry.server.listening) {
      callback(Object.assign(new Error(`connect ECONNREFUSED ${options.hostname}:${options.port} (in process)`), { code: 'ECONNREFUSED' }), null);
      return;
    }
    const [clientSide, serverSide] = MemorySocket.pair(clientScope, entry.scope);
    entry.scope.runInAsyncScope(() => entry.server.emit('connection', serverSide));
    callback(null, clientSide as unknown as Socket);
  });
};

/**
 * Bytes an end takes in before its reader reads them, as a socket's receive buffer does: a write completes as soon
 * as it arrives until the reader is this far behind. Node's HTTP server gives a request's body stream the same
 * buffer. With 16 KiB (a stream's default) every 64 KiB piece of a streamed upload waited for the reader before the
 * next was sent, and the gateway's hop to the service stopped and started on every piece: a 1 GiB artifact went up at
 * about 400 MiB/s instead of 450 on the benchmark machine (docs/performance.md).
 */
const RECEIVE_BUFFER_BYTES = 1024 * 1024;

const brokenPipe = (): Error => Object.assign(new Error('write EPIPE (the other end of the in-process connection is closed)'), { code: 'EPIPE' });

/**
 * One end of an in-memory connection: what one end writes, the other reads, as the same Buffer objects. Like a TCP
 * connection: the bytes arrive on a later turn of the event loop (a check phase, `setImmediate`), in order, so that a
 * call never runs start to finish in one chain of ticks that starves timers and I/O (undici's reuse of a kept-alive
 * connection waits for such a turn); a write completes once the other end took it in with less than
 * RECEIVE_BUFFER_BYTES unread, and otherwise once its reader reads on (backpressure); an end that
 * is ended or destroyed reaches the other as the end of its data, after what it had not read yet; a write to an end
 * that is gone fails with EPIPE, once the data that end had sent is read; not half-open (an end whose data ended ends
 * its own writing). It offers the few `net.Socket` methods Node's HTTP server and undici call.
 */
class MemorySocket extends Duplex {
  private peer!: MemorySocket;
  /** The callback of this end's write in flight, held until the peer reads on. */
  private heldWrite?: (error?: Error | null) => void;
  /** The end of the data is on its way (the peer ended or went away): nothing more comes. */
  private ending = false;
  private idleMs = 0;
  private idleTimer?: NodeJS.Timeout;

  /** Two connected ends; each delivers into the other within that end's async context. */
  static pair(firstScope: AsyncResource, secondScope: AsyncResource): [MemorySocket, MemorySocket] {
    const first = new MemorySocket(firstScope);
    const second = new MemorySocket(secondScope);
    first.peer = second;
    second.peer = first;
    return [first, second];
  }

  private constructor(private readonly scope: AsyncResource) {
    super({ allowHalfOpen: false, readableHighWaterMark: RECEIVE_BUFFER_BYTES });
  }

  // The `net.Socket` surface the HTTP server and undici use.
  readonly remoteAddress = undefined;
  readonly encrypted = false;
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  /** `'timeout'` after `ms` without a byte moving either way (0 turns it off), as `net.Socket.setTimeout`. */
  setTimeout(ms: number, callback?: () => void): this {
    this.idleMs = ms;
    if (callback) {
      if (ms === 0) this.off('timeout', callback);
      else this.once('timeout', callback);
    }
    this.touch();
    return this;
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.idleMs > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), this.idleMs);
      this.idleTimer.unref();
    }
  }

  override _read(): void {
    const held = this.peer.heldWrite;
    this.peer.heldWrite = undefined;
    held?.();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.touch();
    if (this.peer.destroyed || this.peer.ending) {
      this.failWrite(callback);
      return;
    }
    this.heldWrite = callback;
    this.peer.deliver(chunk);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer.deliver(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    const peer = this.peer;
    // The peer's write in flight is never read now.
    const held = peer.heldWrite;
    peer.heldWrite = undefined;
    if (!peer.destroyed) {
      peer.deliver(null);
      if (held) peer.failWrite(held);
    }
    callback(error);
  }

  /** Data (or its end, `null`) from the peer, pushed on the loop's next check phase within this end's async context. */
  private deliver(chunk: Buffer | null): void {
    if (this.ending || this.destroyed) return;
    if (chunk === null) this.ending = true;
    setImmediate(() => {
      if (this.destroyed) return;
      this.scope.runInAsyncScope(() => this.push(chunk));
      this.touch();
    });
  }

  /** EPIPE for a write to a peer that is gone, once what the peer had sent is read (else it could be lost with it). */
  private failWrite(callback: (error?: Error | null) => void): void {
    if (this.readableEnded || this.destroyed) {
      process.nextTick(callback, brokenPipe());
      return;
    }
    const fail = (): void => {
      this.off('end', fail);
      this.off('close', fail);
      callback(brokenPipe());
    };
    this.once('end', fail);
    this.once('close', fail);
  }
}
