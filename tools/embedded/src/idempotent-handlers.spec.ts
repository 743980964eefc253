import type { DynamicModule, Type } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { ServiceDefinition } from '@dsar/platform/host';
import { idempotentOptionsOf } from '@dsar/platform/idempotency';
import { ROUTES } from '@dsar/services/api-gateway';
import { auditLedgerService } from '@dsar/services/audit-ledger';
import { fulfilmentDeliveryService } from '@dsar/services/fulfilment-delivery';
import { intakeGatewayService } from '@dsar/services/intake-gateway';
import { lifecycleClockService } from '@dsar/services/lifecycle-clock';
import { notifierService } from '@dsar/services/notifier';
import { policyRegistryService } from '@dsar/services/policy-registry';
import { verificationService } from '@dsar/services/verification';

const SERVICES: ServiceDefinition[] = [lifecycleClockService, intakeGatewayService, verificationService, fulfilmentDeliveryService, auditLedgerService, notifierService, policyRegistryService];

/** Handlers that take a key without recording it themselves: they pass it on to the service that makes the change. */
const PASS_THE_KEY_ON: Readonly<Record<string, string>> = {
  'POST /requests': 'intake-gateway passes the key and fingerprint on to lifecycle-clock, which creates the request',
  'POST /requests/capture': 'intake-gateway passes the key and fingerprint on to lifecycle-clock, which creates the request',
};

interface Handler {
  method: string;
  path: string;
  handler: object;
}

/** Every controller a module brings, through its imports, static or dynamic. */
function controllersOf(module: Type<unknown> | DynamicModule, seen = new Set<unknown>()): Type<unknown>[] {
  if (!module || seen.has(module)) return [];
  seen.add(module);
  const dynamic = 'module' in module ? module : undefined;
  const type = dynamic ? dynamic.module : (module as Type<unknown>);
  const controllers = [...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, type) ?? []), ...(dynamic?.controllers ?? [])];
  const imports = [...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, type) ?? []), ...(dynamic?.imports ?? [])];
  return [...controllers, ...imports.filter((i) => typeof i === 'function' || (typeof i === 'object' && i !== null && 'module' in i)).flatMap((i) => controllersOf(i, seen))];
}

function handlersOf(controller: Type<unknown>): Handler[] {
  const base = [Reflect.getMetadata(PATH_METADATA, controller)].flat()[0] ?? '';
  const proto = controller.prototype as object;
  return Object.getOwnPropertyNames(proto).flatMap((key) => {
    // The value of a method only: a getter would run against a prototype without its injected fields.
    const fn: unknown = Object.getOwnPropertyDescriptor(proto, key)?.value;
    if (typeof fn !== 'function' || key === 'constructor' || Reflect.getMetadata(METHOD_METADATA, fn) === undefined) return [];
    const own = [Reflect.getMetadata(PATH_METADATA, fn)].flat()[0] ?? '';
    const path = `/${[base, own].filter((p) => p !== '' && p !== '/').join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
    return [{ method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as number], path, handler: fn }];
  });
}

const shape = (path: string) => path.replace(/:[A-Za-z]+/g, ':');

describe("the services' handlers of every POST and PUT the gateway routes", () => {
  const handlers = SERVICES.flatMap((s) => controllersOf(s.module).flatMap(handlersOf));
  const commands = ROUTES.filter((r) => (r.method === 'POST' || r.method === 'PUT') && r.idempotencyExempt === undefined);

  it('record the Idempotency-Key (`@Idempotent()`), uploads included, or pass it on to the service that does', () => {
    expect(commands.length).toBeGreaterThan(30);
    const found = commands.map((r) => {
      const at = `${r.method} ${r.path}`;
      const handler = handlers.find((h) => h.method === r.method && shape(h.path) === shape(`/internal/v1${r.path}`));
      return { route: at, handled: handler !== undefined, idempotent: handler !== undefined && (idempotentOptionsOf(handler.handler) !== undefined || at in PASS_THE_KEY_ON) };
    });
    expect(found.filter((f) => !f.handled || !f.idempotent)).toEqual([]);
  });

  it('an upload hashes its streamed body for the key', () => {
    for (const route of ROUTES.filter((r) => r.upload)) {
      const handler = handlers.find((h) => h.method === route.method && shape(h.path) === shape(`/internal/v1${route.path}`));
      expect({ route: route.path, streamed: idempotentOptionsOf(handler!.handler)?.streamedBody !== undefined }).toEqual({ route: route.path, streamed: true });
    }
  });
});
