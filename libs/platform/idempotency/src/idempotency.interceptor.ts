import { type CallHandler, type ExecutionContext, HttpStatus, Injectable, type NestInterceptor, RequestMethod, SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { createHash, type Hash } from 'node:crypto';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '@dsar/contracts';
import { principalOf } from '@dsar/platform/http';
import { UnitOfWork, whileRenewingLease } from '@dsar/platform/persistence';
import { ProblemError } from '@dsar/platform/errors';
import { parseIdempotencyKey, requestFingerprint, streamedBodyFingerprint, streamedFingerprintParts } from './idempotency-key';
import { CLAIM_RENEW_MS, IdempotencyStore, type IdempotencyScope } from './idempotency-store';

/**
 * Makes a command handler idempotent under the `Idempotency-Key` header: the
 * first execution runs inside one transaction together with the record of its
 * response; a retry with the same key and request replays that response; the
 * same key with another request is 422; a retry while the first still runs is 409.
 * A handler that streams its body (`streamedBody`, an upload) reads it through
 * `streamedBodyOf(req)`, which hashes the bytes as they pass: the record holds
 * the head's fingerprint while it runs and the whole request's once it is done,
 * and a retry's body is read (not stored) to tell a replay from another request.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly uow: UnitOfWork,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const key = parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined) return next.handle();
    const principal = principalOf(req);
    const scope: IdempotencyScope = { tenantId: principal.tenantId, principal: principal.id, key };
    const forwarded = req.headers[IDEMPOTENCY_FINGERPRINT_HEADER];
    const handler = context.getHandler();
    const options: IdempotentOptions = Reflect.getMetadata(IDEMPOTENT_OPTIONS, handler) ?? {};
    const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    const res = context.switchToHttp().getResponse<Response>();
    if (options.streamedBody) {
      // The gateway forwards the head's fingerprint (method, public path, the route's declared headers); a direct
      // call's is made from the headers the handler names.
      const head = typeof forwarded === 'string' && forwarded !== '' ? forwarded : requestFingerprint(req.method, req.path, { upload: headsOf(req, options.streamedBody.headers) });
      return from(this.executeStreamed(scope, head, status, next, req, res));
    }
    const fingerprint = typeof forwarded === 'string' && forwarded !== '' ? forwarded : requestFingerprint(req.method, req.path, req.body);
    return from(this.execute(scope, fingerprint, status, next, res, options));
  }

  /**
   * A streamed body: the key is claimed on the head's fingerprint before a byte is read. A claimed key's body reaches
   * the handler through a hashing pass-through, and the record is completed with the whole fingerprint; a completed
   * key's retry is read to its end (nothing is stored) and replayed when its bytes are the first request's, else 422.
   */
  private async executeStreamed(scope: IdempotencyScope, head: string, status: number, next: CallHandler, req: Request, res: Response): Promise<unknown> {
    let claim: Awaited<ReturnType<IdempotencyStore['claim']>>;
    try {
      claim = await this.store.claim(scope, head, { streamedBody: true });
    } catch (e) {
      // Refused before a byte was read: the rest is read and dropped, so that the answer reaches the client.
      req.resume();
      throw e;
    }
    if (claim.kind === 'replay') {
      const recorded = streamedFingerprintParts(claim.fingerprint);
      const read = await digestOf(req, recorded?.bytes ?? 0);
      if (read === undefined || streamedBodyFingerprint(head, read.sha256, read.bytes) !== claim.fingerprint) {
        throw new ProblemError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request (method, path, headers or body). Use a new key for a new request.');
      }
      res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return claim.body;
    }
    const body = new DigestingStream();
    req.once('error', (e) => body.destroy(e));
    req.pipe(body);
    (req as StreamedRequest)[STREAMED_BODY] = body;
    try {
      return await whileRenewingLease(
        () => this.store.renew(scope),
        CLAIM_RENEW_MS,
        async () => {
          const answer = await lastValueFrom(next.handle(), { defaultValue: undefined });
          // A handler that answered without reading its body to the end: what is left is read (and hashed) now.
          if (!body.readableEnded) {
            body.resume();
            await finished(body);
          }
          const fingerprint = streamedBodyFingerprint(head, body.sha256(), body.bytes);
          await this.store.completeAlone(scope, status, answer, fingerprint);
          return answer;
        },
      );
    } catch (e) {
      await this.store.release(scope).catch(() => undefined);
      throw e;
    }
  }

  private async execute(scope: IdempotencyScope, fingerprint: string, status: number, next: CallHandler, res: Response, options: IdempotentOptions): Promise<unknown> {
    const claim = await this.store.claim(scope, fingerprint);
    if (claim.kind === 'replay') {
      res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return claim.body;
    }
    try {
      // The claim's lease is short, so that a retry after a crash is not blocked for long: keep it while we run.
      return await whileRenewingLease(
        () => this.store.renew(scope),
        CLAIM_RENEW_MS,
        () => this.handleAndRecord(scope, status, next, options),
      );
    } catch (e) {
      await this.store.release(scope).catch(() => undefined);
      throw e;
    }
  }

  private async handleAndRecord(scope: IdempotencyScope, status: number, next: CallHandler, options: IdempotentOptions): Promise<unknown> {
    if (options.ownTransactions) {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.store.completeAlone(scope, status, body);
      return body;
    }
    return this.uow.run(async (tx) => {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      this.store.complete(tx, scope, status, body);
      return body;
    });
  }
}

const IDEMPOTENT_OPTIONS = 'dsar:idempotent-options';

export interface IdempotentOptions {
  /**
   * Run the handler outside the transaction that records its answer, which is
   * then recorded in a transaction of its own. For handlers that call other
   * services: a transaction must never wait on another service (in embedded
   * mode one database session serves them all). Such a handler keeps its own
   * writes atomic and must be safe to run again after a crash between its work
   * and the record (for example by passing keys derived from its own ids on).
   */
  ownTransactions?: boolean;
  /**
   * The handler streams its body (an upload) and reads it through `streamedBodyOf(req)`. The request's fingerprint
   * is its head's (the gateway's, or made of these headers on a direct call) and the SHA-256 of the bytes that
   * streamed through. The handler keeps its own transactions (as with `ownTransactions`): a body is never streamed
   * inside one.
   */
  streamedBody?: { headers: readonly string[] };
}

const STREAMED_BODY = Symbol('dsar:streamed-body');
type StreamedRequest = Request & { [STREAMED_BODY]?: Readable };

/** The body of a `streamedBody` handler's request: the request itself, or its hashing pass-through when a key is claimed. */
export function streamedBodyOf(req: Request): Readable {
  return (req as StreamedRequest)[STREAMED_BODY] ?? req;
}

/** The body's bytes as they pass, and their SHA-256. */
class DigestingStream extends Transform {
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

/** The headers a direct call's head fingerprint is made of, and its length. */
function headsOf(req: Request, names: readonly string[]): Record<string, string | null> {
  const heads: Record<string, string | null> = { 'content-length': req.headers['content-length'] ?? null };
  for (const name of names) {
    const value = req.headers[name.toLowerCase()];
    heads[name.toLowerCase()] = value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  return heads;
}

/**
 * Reads a body to its end and answers the SHA-256 of its bytes and their number, or undefined as soon as it is longer
 * than `limit` (the first request's length: it cannot be the same body); the rest is then read and dropped.
 */
function digestOf(body: Readable, limit: number): Promise<{ sha256: string; bytes: number } | undefined> {
  const hash = createHash('sha256');
  let bytes = 0;
  return new Promise((resolve, reject) => {
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) {
        stop();
        body.resume();
        resolve(undefined);
        return;
      }
      hash.update(chunk);
    };
    const onEnd = () => {
      stop();
      resolve({ sha256: hash.digest('hex'), bytes });
    };
    const onError = (e: unknown) => {
      stop();
      reject(e);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

/** The options a handler was marked `@Idempotent()` with; undefined for a handler that is not. */
export function idempotentOptionsOf(handler: object): IdempotentOptions | undefined {
  return Reflect.getMetadata(IDEMPOTENT_OPTIONS, handler);
}

/** Marks a command handler as idempotent under the Idempotency-Key header. */
export const Idempotent = (options: IdempotentOptions = {}) => applyDecorators(SetMetadata(IDEMPOTENT_OPTIONS, options), UseInterceptors(IdempotencyInterceptor));
