import type { AddressInfo } from 'node:net';
import type { EventCatalog } from '@dsar/contracts';
import { type AuthSettings, DEV_TOKEN_FILE, ensureDevToken, ensureReviewerToken, leftoverDevTokenFile, REVIEWER_TOKEN_FILE } from '@dsar/platform/auth';
import {
  ensureDevIdentityIndexKey,
  ensureDevInternalAuthKey,
  ensureDevRequestReferenceKey,
  type IdentityIndexKeyConfig,
  identityIndexKeysFrom,
  internalAuthKeyFrom,
  requestReferenceKeysFrom,
} from '@dsar/platform/config';
import type { Clock } from '@dsar/platform/clock';
import { gatewayHostConfig, type HostConfig, type HostedService, type HostOptions, hostService, type ServiceDefinition } from '@dsar/platform/host';
import { PgliteHost } from '@dsar/platform/persistence';
import { addressRateLimitsFrom, apiGatewayService, consoleSettingsFrom, type GatewayConfig, gatewaySettingsFrom } from '@dsar/services/api-gateway';
import { type AuditConfig, auditLedgerService, auditLedgerServiceWith, CheckpointPublisher, checkpointSettingsFrom, ensureDevSigningKey } from '@dsar/services/audit-ledger';
import {
  type DataSystemConfig,
  dataSystemSettingsProvider,
  type DeliveryConfig,
  deliverySettingsProvider,
  type FulfilmentConfig,
  fulfilmentDeliveryService,
  fulfilmentDeliveryServiceWith,
  fulfilmentSettingsProviders,
} from '@dsar/services/fulfilment-delivery';
import { intakeGatewayService, intakeGatewayServiceWith, type WebhookConfig, webhookSettingsFrom } from '@dsar/services/intake-gateway';
import { deadlineMonitorSettingsFrom, identityIndexSettingsFrom, type LifecycleConfig, lifecycleClockService, lifecycleClockServiceWith } from '@dsar/services/lifecycle-clock';
import { type NotifierConfig, notifierService, notifierServiceWith, type NotifierSettings, notifierSettingsFrom } from '@dsar/services/notifier';
import { type PolicyAdminConfig, policyAdminSettingsProvider, policyRegistryService, policyRegistryServiceWith } from '@dsar/services/policy-registry';
import { retentionSettingsFrom } from '@dsar/platform/retention';
import { ensureDevStorageMasterKey, StorageModule, type StorageConfig, storageMasterKeyFrom } from '@dsar/platform/storage';
import { type VerificationConfig, verificationService, verificationServiceWith, verificationSettingsFrom } from '@dsar/services/verification';

/** For the entry point, which loads this module lazily (it sets the heap growth before the services start). */
export { tuneHeapGrowth } from '@dsar/platform/host';

/** The domain services, in start order: a service starts after those it calls. The gateway comes last. */
export const DOMAIN_SERVICES: ServiceDefinition[] = [
  lifecycleClockService,
  intakeGatewayService,
  verificationService,
  fulfilmentDeliveryService,
  auditLedgerService,
  notifierService,
  // Its retention report asks the services that own the classes.
  policyRegistryService,
];

/**
 * Runner settings. lifecycle-clock's deadline monitor, verification's
 * reminder sweep and audit-ledger's signed checkpoints are off unless their
 * intervals are given (the runner's config gives them); without a configured
 * signing key, checkpoints are signed with a key kept in DATA_DIR, without
 * a storage master key, evidence files and fulfilment artifacts are encrypted
 * with one kept there too, without a request reference key, the notifier
 * tags references and intake checks them with one kept there as well, and
 * without an identity index key, lifecycle-clock indexes identities under one
 * kept there.
 */
export type SystemConfig = HostConfig &
  IdentityIndexKeyConfig &
  Partial<Omit<GatewayConfig, 'HTTP_BODY_LIMIT'>> &
  Partial<LifecycleConfig> &
  Partial<AuditConfig> &
  Partial<VerificationConfig> &
  Partial<FulfilmentConfig> &
  Partial<DeliveryConfig> &
  Partial<DataSystemConfig> &
  Partial<NotifierConfig> &
  Partial<WebhookConfig> &
  Partial<PolicyAdminConfig> &
  Partial<Omit<StorageConfig, 'DATA_DIR'>>;

export interface SystemOptions {
  /** Event types beyond the product's (tests). */
  catalog?: EventCatalog;
  /** Where every service's log lines go instead of stdout (tests capture them). */
  logDestination?: HostOptions['logDestination'];
  /** The time every service's domain reads (tests set and advance it); the system clock by default. */
  clock?: Clock;
}

/**
 * The person's download page that the notifier's delivery links open: PORTAL_URL, else this process's gateway on this
 * machine, `http://localhost:<PORT>/portal/`. Unknown (undefined) while the gateway's port is: PORT 0 takes any free
 * port, and the address is given to the notifier once the gateway listens (startSystem).
 */
function embeddedPortalUrl(config: Pick<SystemConfig, 'PORTAL_URL'>, gatewayPort: number | undefined): string | undefined {
  if (config.PORTAL_URL) return config.PORTAL_URL;
  return gatewayPort ? `http://localhost:${gatewayPort}/portal/` : undefined;
}

/** The domain services configured for this run, with the notifier's settings (startSystem completes its download page's address). */
async function domainServices(given: SystemConfig): Promise<{ definitions: ServiceDefinition[]; notifier: NotifierSettings }> {
  const config = await withIdentityIndexKey(await withReferenceKey(given));
  const storage = await withOneStorageKey(config);
  const notifier = notifierSettingsFrom({ ...config, PORTAL_URL: embeddedPortalUrl(config, config.PORT) });
  const configured = [
    lifecycleClockServiceWith(deadlineMonitorSettingsFrom(config), retentionSettingsFrom(config), identityIndexSettingsFrom(config)),
    // Without a configured master key, evidence is encrypted with the development key kept in DATA_DIR.
    verificationServiceWith(verificationSettingsFrom(config), StorageModule.forRoot({ config: storage, devMasterKey: true })),
    // Fulfilment artifacts too, under the same key.
    fulfilmentDeliveryServiceWith(
      [...fulfilmentSettingsProviders(config), deliverySettingsProvider(config), dataSystemSettingsProvider(config)],
      StorageModule.forRoot({ config: storage, devMasterKey: true }),
      retentionSettingsFrom(config),
    ),
    auditLedgerServiceWith(await checkpointSettings(config), retentionSettingsFrom(config)),
    notifierServiceWith(notifier),
    // The inbound webhooks, on their secrets and routes (none: both answer 404).
    intakeGatewayServiceWith(webhookSettingsFrom(config)),
    // The four-eyes rule of pack upgrades (POLICY_UPGRADE_FOUR_EYES, POLICY_TENANT_SETTINGS).
    policyRegistryServiceWith(policyAdminSettingsProvider(config)),
  ];
  return { definitions: DOMAIN_SERVICES.map((s) => configured.find((c) => c.name === s.name) ?? s), notifier };
}

/**
 * The storage settings of the services that keep files, on one master key: the configured one, else the
 * development key of DATA_DIR, read (or made) once. With in-memory data every read would make a new key, and
 * services sharing a STORAGE_DIR must agree on the key that wraps each tenant's data key.
 */
async function withOneStorageKey(config: SystemConfig): Promise<SystemConfig> {
  if (storageMasterKeyFrom(config)) return config;
  const { key } = await ensureDevStorageMasterKey(config.DATA_DIR);
  return { ...config, STORAGE_MASTER_KEY: key.toString('base64'), STORAGE_MASTER_KEY_FILE: undefined };
}

/**
 * The request reference key of the notifier (which tags) and intake-gateway (which checks): the configured keys, else
 * the development key of DATA_DIR, read (or made) once so that both services hold the same one.
 */
async function withReferenceKey(config: SystemConfig): Promise<SystemConfig> {
  if (requestReferenceKeysFrom(config).length > 0) return config;
  const { key } = await ensureDevRequestReferenceKey(config.DATA_DIR);
  return { ...config, REQUEST_REFERENCE_KEY: key, REQUEST_REFERENCE_KEY_FILE: undefined };
}

/**
 * The identity index key of lifecycle-clock: the configured keys, else the development key of DATA_DIR, read (or
 * made) once, so that the index rows written before a restart still match a search after it.
 */
async function withIdentityIndexKey(config: SystemConfig): Promise<SystemConfig> {
  if (identityIndexKeysFrom(config).length > 0) return config;
  const { key } = await ensureDevIdentityIndexKey(config.DATA_DIR);
  return { ...config, IDENTITY_INDEX_KEY: key, IDENTITY_INDEX_KEY_FILE: undefined };
}

/** Checkpoints on the configured key, or on the development key kept in DATA_DIR. */
async function checkpointSettings(config: SystemConfig) {
  const settings = checkpointSettingsFrom(config);
  if (settings.signingKeyPem || !settings.intervalMs) return settings;
  return { ...settings, signingKeyPem: (await ensureDevSigningKey(config.DATA_DIR)).pem };
}

export interface RunningSystem {
  readonly gatewayUrl: string;
  readonly services: ReadonlyMap<string, HostedService>;
  /** The development admin key, when no authentication was configured. */
  readonly devToken?: { token: string; path?: string; created: boolean };
  /** The development reviewer's key (an operator of tenant `default`, another principal than devToken's), beside it. */
  readonly reviewerToken?: { token: string; path?: string; created: boolean };
  /** A dev-token file left in DATA_DIR while authentication is configured (its key answers 401), and the settings that turned it off. */
  readonly leftoverDevToken?: { path: string; configuredBy: string[] };
  /** The same for a reviewer-token file. */
  readonly leftoverReviewerToken?: { path: string; configuredBy: string[] };
  /** Where the gateway really listens: the bound address (`0.0.0.0` or `::` for every interface) and port. */
  readonly listening: { address: string; port: number };
  /** The key the services sign and check internal identity with (configured, or the development one of DATA_DIR). */
  readonly internalAuthKey: string;
  /** The id of the key audit checkpoints are signed with (configured, or the development one of DATA_DIR), when checkpoints are on. */
  readonly auditKeyId?: string;
  close(): Promise<void>;
  /** Stops one domain service and starts it again on the same port (tests of a restart); a stopped one is started. */
  restart(name: string): Promise<HostedService>;
  /** Stops one domain service, as a crashed or scaled-down process would be; `restart` brings it back. */
  stop(name: string): Promise<void>;
}

type EmbeddedAuth = Pick<RunningSystem, 'devToken' | 'reviewerToken' | 'leftoverDevToken' | 'leftoverReviewerToken'> & { auth: AuthSettings };

/**
 * The gateway's authentication, or, when none is configured, two development keys for tenant `default`: an admin key
 * and a reviewer's (an operator), two principals, so that a manifest one of them uploaded can be reviewed by the other
 * under four eyes (SVC-BE-1213).
 */
async function embeddedAuth(config: SystemConfig): Promise<EmbeddedAuth> {
  const settings = gatewaySettingsFrom({ RATE_LIMIT_PER_MINUTE: 0, UPSTREAM_TIMEOUT_MS: 0, ...config });
  const configuredBy = authSettingsGiven(settings.auth);
  if (configuredBy.length > 0) {
    const [devPath, reviewerPath] = await Promise.all([leftoverDevTokenFile(config.DATA_DIR, DEV_TOKEN_FILE), leftoverDevTokenFile(config.DATA_DIR, REVIEWER_TOKEN_FILE)]);
    return {
      auth: settings.auth,
      ...(devPath ? { leftoverDevToken: { path: devPath, configuredBy } } : {}),
      ...(reviewerPath ? { leftoverReviewerToken: { path: reviewerPath, configuredBy } } : {}),
    };
  }
  const devToken = await ensureDevToken(config.DATA_DIR);
  const reviewerToken = await ensureReviewerToken(config.DATA_DIR);
  const apiKeys: AuthSettings['apiKeys'] = [
    { token: devToken.token, tenantId: 'default', roles: ['admin'] },
    { token: reviewerToken.token, tenantId: 'default', roles: ['operator'] },
  ];
  return { auth: { ...settings.auth, apiKeys }, devToken, reviewerToken };
}

/** The variables that configured the gateway's authentication; none: the development key applies. */
function authSettingsGiven(auth: AuthSettings): string[] {
  return [auth.apiKeys.length > 0 && 'DSAR_API_KEYS', auth.jwtSecret && 'AUTH_JWT_SECRET', auth.jwksUrl && 'AUTH_JWKS_URL'].filter((name): name is string => typeof name === 'string');
}

/** The configured internal auth key, or the development one kept in DATA_DIR (a fresh one with in-memory data). */
async function embeddedInternalAuthKey(config: SystemConfig): Promise<string> {
  return internalAuthKeyFrom(config) ?? (await ensureDevInternalAuthKey(config.DATA_DIR)).key;
}

/**
 * Starts all eight services in this process: each is its own Nest app on a
 * loopback port, the gateway listens on PORT. The gateway and the services
 * call each other in memory (`inProcess`, ADR 0032), with HTTP as over their
 * ports. Consumers join before any relay publishes, so no event goes out
 * before its consumers listen.
 */
export async function startSystem(config: SystemConfig, options: SystemOptions = {}): Promise<RunningSystem> {
  const services = new Map<string, HostedService>();
  const started: HostedService[] = [];
  const close = async () => {
    for (const s of started.reverse()) await s.close().catch(() => undefined);
    if (config.DB_DRIVER === 'pglite') await PgliteHost.closeAll();
  };
  try {
    const { auth, devToken, reviewerToken, leftoverDevToken, leftoverReviewerToken } = await embeddedAuth(config);
    const internalAuthKey = await embeddedInternalAuthKey(config);
    // Every service signs and checks internal identity with the same key (ADR 0020).
    const keyed: SystemConfig = { ...config, INTERNAL_AUTH_KEY: internalAuthKey, INTERNAL_AUTH_KEY_FILE: undefined };
    const hosts = new Map<string, (port: number) => Promise<HostedService>>();
    const domain = await domainServices(config);
    for (const definition of domain.definitions) {
      const upstreams = Object.fromEntries([...services].map(([name, s]) => [name, s.url]));
      const host = (port: number) =>
        hostService(
          definition,
          { ...keyed, HOST: '127.0.0.1', PORT: port },
          { catalog: options.catalog, logName: 'dsar', logDestination: options.logDestination, upstreams, clock: options.clock, inProcess: true },
        );
      const hosted = await host(0);
      hosts.set(definition.name, host);
      started.push(hosted);
      services.set(definition.name, hosted);
    }
    const upstreams = Object.fromEntries([...services].map(([name, s]) => [name, s.url]));
    const rateLimitPerMinute = config.RATE_LIMIT_PER_MINUTE ?? 600;
    const gatewaySettings = {
      auth,
      rateLimitPerMinute,
      ...addressRateLimitsFrom({ ...config, RATE_LIMIT_PER_MINUTE: rateLimitPerMinute }),
      trustedProxies: config.TRUSTED_PROXIES ?? [],
      upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS ?? 10_000,
      ...(config.UPLOAD_IDLE_TIMEOUT_MS !== undefined ? { uploadIdleTimeoutMs: config.UPLOAD_IDLE_TIMEOUT_MS } : {}),
      bodyLimit: config.HTTP_BODY_LIMIT,
      console: consoleSettingsFrom(config),
    };
    const gateway = await hostService(apiGatewayService(upstreams, gatewaySettings), gatewayHostConfig(keyed), { logName: 'dsar', logDestination: options.logDestination, clock: options.clock });
    started.push(gateway);
    services.set('api-gateway', gateway);
    // With PORT 0 the gateway's port is known only now, before any event is consumed; a delivery email tried earlier
    // (none is due on a first start) waits as a transient failure.
    domain.notifier.portalUrl ??= embeddedPortalUrl(config, (gateway.app.getHttpServer().address() as AddressInfo).port);
    for (const s of started) await s.startConsuming();
    for (const s of started) s.startPublishing();
    const stopped = new Set<string>();
    /** Stops a domain service and starts it again on its port, as a restarted process would be (its state is in the database). */
    const restart = async (name: string): Promise<HostedService> => {
      const old = services.get(name);
      const host = hosts.get(name);
      if (!old || !host) throw new Error(`no domain service ${name} to restart`);
      if (!stopped.delete(name)) await old.close();
      const fresh = await host(Number(new URL(old.url).port));
      started.splice(started.indexOf(old), 1, fresh);
      services.set(name, fresh);
      await fresh.startConsuming();
      fresh.startPublishing();
      return fresh;
    };
    const stop = async (name: string): Promise<void> => {
      const service = services.get(name);
      if (!service || stopped.has(name)) throw new Error(`no running domain service ${name} to stop`);
      await service.close();
      stopped.add(name);
    };
    const bound = gateway.app.getHttpServer().address() as AddressInfo;
    const auditKeyId = services.get('audit-ledger')?.app.get(CheckpointPublisher, { strict: false }).keyId;
    return {
      gatewayUrl: gateway.url,
      listening: { address: bound.address, port: bound.port },
      services,
      devToken,
      reviewerToken,
      leftoverDevToken,
      leftoverReviewerToken,
      internalAuthKey,
      auditKeyId,
      close,
      restart,
      stop,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
