import { type CallHandler, type ExecutionContext, HttpStatus, Injectable, type NestInterceptor, RequestMethod, SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '@dsar/contracts';
import { principalOf } from '@dsar/platform/http';
import { UnitOfWork, whileRenewingLease } from '@dsar/platform/persistence';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key';
import { CLAIM_RENEW_MS, IdempotencyStore, type IdempotencyScope } from './idempotency-store';

/**
 * Makes a command handler idempotent under the `Idempotency-Key` header: the
 * first execution runs inside one transaction together with the record of its
 * response; a retry with the same key and request replays that response; the
 * same key with another request is 422; a retry while the first still runs is 409.
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
    const fingerprint = typeof forwarded === 'string' && forwarded !== '' ? forwarded : requestFingerprint(req.method, req.path, req.body);
    const handler = context.getHandler();
    const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
    const options: IdempotentOptions = Reflect.getMetadata(IDEMPOTENT_OPTIONS, handler) ?? {};
    return from(this.execute(scope, fingerprint, status, next, context.switchToHttp().getResponse<Response>(), options));
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
      await this.uow.run((tx) => this.store.complete(tx, scope, status, body));
      return body;
    }
    return this.uow.run(async (tx) => {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.store.complete(tx, scope, status, body);
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
}

/** Marks a command handler as idempotent under the Idempotency-Key header. */
export const Idempotent = (options: IdempotentOptions = {}) => applyDecorators(SetMetadata(IDEMPOTENT_OPTIONS, options), UseInterceptors(IdempotencyInterceptor));
