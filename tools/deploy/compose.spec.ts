import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SERVICE_PORTS } from '@dsar/platform/config';
import { appConfigSchema, appNames, asLoadConfigSees, type ConfigSchema, schemaKeys, secretPlaceholder, VARIABLES_OUTSIDE_SCHEMA } from './app-env';

/**
 * deploy/compose/compose.yaml against the code: every service runs its app with an environment that the app's own
 * config schema accepts (so every variable it requires is set, and every value parses), sets no variable the schema
 * does not know, listens on its default port, and is wired to the others as the Helm chart wires them; the notifier
 * sends its email to the mail catcher, and the services that keep files keep them in the S3-compatible store.
 */
const root = path.resolve(__dirname, '../..');
const SERVICES = appNames();
const schemas = new Map<string, ConfigSchema>();
beforeAll(async () => {
  for (const app of SERVICES) schemas.set(app, await appConfigSchema(app));
});

/** What a user exports before `docker compose up` (the file refuses to start without them). */
const USER_SETTINGS: Record<string, string> = {
  INTERNAL_AUTH_KEY: secretPlaceholder('INTERNAL_AUTH_KEY'),
  REQUEST_REFERENCE_KEY: secretPlaceholder('REQUEST_REFERENCE_KEY'),
  IDENTITY_INDEX_KEY: secretPlaceholder('IDENTITY_INDEX_KEY'),
  DSAR_API_KEYS: secretPlaceholder('DSAR_API_KEYS'),
  STORAGE_MASTER_KEY: secretPlaceholder('STORAGE_MASTER_KEY'),
};

/** Compose's interpolation, as far as the file uses it: `${NAME:?message}`, `${NAME:-default}` and `$$`. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{(\w+)(?::([?-])((?:[^{}]|\{[^}]*\})*))?\}/g, (_all, name: string, op?: string, rest?: string) => USER_SETTINGS[name] ?? (op === '-' ? (rest ?? '') : `<unset ${name}>`))
    .replace(/\$\$/g, '$');
}

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, unknown>;
}
const compose = parse(readFileSync(path.join(root, 'deploy/compose/compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const chartValues = parse(readFileSync(path.join(root, 'charts/dsar/values.yaml'), 'utf8')) as { services: Record<string, { port: number }> };

function environmentOf(service: string): Record<string, string> {
  const env = compose.services[service].environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v))]));
}

describe('deploy/compose/compose.yaml', () => {
  it('runs every service of the product, and nothing the product does not have', () => {
    const products = Object.keys(compose.services).filter((s) => compose.services[s].command?.some((c) => c.startsWith('dist/apps/')));
    expect(products.sort()).toEqual(SERVICES);
  });

  describe.each(SERVICES)('%s', (service) => {
    const schema = () => schemas.get(service)!;

    it('runs its own app', () => {
      expect(compose.services[service].command).toEqual(['node', `dist/apps/${service}/src/main.js`]);
    });

    it('has an environment its config schema accepts', () => {
      // As loadConfig sees it: a variable passed through empty (`${SMTP_URL:-}` when unset) counts as unset.
      const parsed = schema().safeParse(asLoadConfigSees(environmentOf(service)));
      expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    });

    it("sets no variable its config schema does not know (but those read outside it, such as the AWS SDK's keys)", () => {
      const known = schemaKeys(schema());
      expect(Object.keys(environmentOf(service)).filter((k) => !known.has(k) && !VARIABLES_OUTSIDE_SCHEMA.has(k))).toEqual([]);
    });

    it('listens on its default port, the one the chart gives it', () => {
      const port = Number(environmentOf(service).PORT);
      expect(port).toBe(DEFAULT_SERVICE_PORTS[service as keyof typeof DEFAULT_SERVICE_PORTS]);
      expect(port).toBe(chartValues.services[service].port);
    });
  });

  it('points every service at the services it calls (each <SERVICE>_URL its schema reads), on their ports, and starts it after them', () => {
    const upstreamsOf = (service: string) =>
      [...schemaKeys(schemas.get(service)!)].map((k) => /^(\w+)_URL$/.exec(k)?.[1].toLowerCase().replace(/_/g, '-')).filter((u): u is string => !!u && SERVICES.includes(u));
    // The gateway calls every other service; intake-gateway, verification, fulfilment-delivery and the notifier call lifecycle-clock,
    // the notifier also fulfilment-delivery (the link of a delivery by email); policy-registry calls the five services that own a
    // retention class (its retention report, docs/retention.md).
    expect(upstreamsOf('api-gateway').sort()).toEqual(SERVICES.filter((s) => s !== 'api-gateway'));
    expect(SERVICES.filter((s) => upstreamsOf(s).includes('lifecycle-clock'))).toEqual(expect.arrayContaining(['api-gateway', 'intake-gateway', 'notifier', 'policy-registry']));
    expect(upstreamsOf('notifier').sort()).toEqual(['fulfilment-delivery', 'lifecycle-clock']);
    expect(upstreamsOf('policy-registry').sort()).toEqual(['audit-ledger', 'fulfilment-delivery', 'lifecycle-clock', 'notifier', 'verification']);
    for (const service of SERVICES) {
      const env = environmentOf(service);
      for (const upstream of upstreamsOf(service)) {
        const variable = `${upstream.toUpperCase().replace(/-/g, '_')}_URL`;
        expect({ service, variable, url: env[variable] }).toEqual({ service, variable, url: `http://${upstream}:${chartValues.services[upstream].port}` });
        expect({ service, dependsOn: compose.services[service].depends_on }).toMatchObject({ service, dependsOn: { [upstream]: { condition: 'service_started' } } });
      }
    }
  });

  it('gives the identity index key to lifecycle-clock only, as the user exports it, and starts nothing without it', () => {
    const holders = SERVICES.filter((s) => 'IDENTITY_INDEX_KEY' in (compose.services[s].environment ?? {}));
    expect(holders).toEqual(['lifecycle-clock']);
    expect(configOf('lifecycle-clock').IDENTITY_INDEX_KEY).toBe(USER_SETTINGS.IDENTITY_INDEX_KEY);
    expect(String(compose.services['lifecycle-clock'].environment?.IDENTITY_INDEX_KEY)).toMatch(/^\$\{IDENTITY_INDEX_KEY:\?set IDENTITY_INDEX_KEY/);
  });

  it('starts the domain services only after the migrations and topics are in place', () => {
    for (const service of SERVICES.filter((s) => s !== 'api-gateway')) {
      expect(compose.services[service].depends_on).toMatchObject({ provision: { condition: 'service_completed_successfully' } });
    }
  });

  /** The one service that runs an image of `repository` (any tag). */
  function serviceOfImage(repository: string): string {
    const names = Object.keys(compose.services).filter((s) => compose.services[s].image?.split(':')[0] === repository);
    expect({ repository, services: names }).toEqual({ repository, services: [expect.any(String)] });
    return names[0];
  }

  /** A service's environment as its app's config schema parses it (the schema's defaults and types applied). */
  function configOf(service: string): Record<string, unknown> {
    return schemas.get(service)!.parse(asLoadConfigSees(environmentOf(service))) as Record<string, unknown>;
  }

  it("sends the notifier's email to the mail catcher (Mailpit, SMTP on 1025) unless the user exports SMTP_URL", () => {
    const mailpit = serviceOfImage('axllent/mailpit');
    expect(configOf('notifier').SMTP_URL).toBe(`smtp://${mailpit}:1025`);
    expect(compose.services.notifier.environment?.SMTP_URL).toBe(`\${SMTP_URL:-smtp://${mailpit}:1025}`);
    expect(compose.services.notifier.depends_on).toMatchObject({ [mailpit]: { condition: 'service_started' } });
    // Its web UI, on this machine only.
    expect(compose.services[mailpit].ports).toEqual(['127.0.0.1:8025:8025']);
  });

  describe('the S3-compatible store', () => {
    // The services whose schema has the storage settings: verification and fulfilment-delivery.
    const keepers = () => SERVICES.filter((s) => schemaKeys(schemas.get(s)!).has('STORAGE_DRIVER'));

    /** MinIO, the one-shot that makes its bucket, and MinIO's credentials. */
    function store() {
      const minio = serviceOfImage('minio/minio');
      const { MINIO_ROOT_USER: user, MINIO_ROOT_PASSWORD: password } = environmentOf(minio);
      return { minio, bucketJob: serviceOfImage('minio/mc'), user, password };
    }

    it('is MinIO, with a one-shot that creates the bucket once MinIO is healthy', () => {
      const { minio, bucketJob, user, password } = store();
      expect(compose.services[bucketJob].depends_on).toEqual({ [minio]: { condition: 'service_healthy' } });
      expect(environmentOf(bucketJob)).toEqual({ MC_HOST_dsar: `http://${user}:${password}@${minio}:9000` });
      expect(compose.services[bucketJob].command).toEqual(['mb', '--ignore-existing', `dsar/${String(configOf('verification').S3_BUCKET)}`]);
      expect(compose.services[minio].volumes).toEqual(['minio:/data']);
    });

    it('keeps the files of verification and fulfilment-delivery, through the s3 driver with what it needs', () => {
      const { minio, bucketJob, user, password } = store();
      expect(keepers()).toEqual(['fulfilment-delivery', 'verification']);
      for (const service of keepers()) {
        const config = configOf(service);
        expect({ service, config }).toMatchObject({
          service,
          config: { STORAGE_DRIVER: 's3', S3_BUCKET: 'dsar', S3_ENDPOINT: `http://${minio}:9000`, S3_FORCE_PATH_STYLE: true, STORAGE_MASTER_KEY: USER_SETTINGS.STORAGE_MASTER_KEY },
        });
        expect({ service, config: config.STORAGE_DIR }).toEqual({ service, config: undefined });
        // The AWS SDK's static keys (read outside the schema) are MinIO's.
        const env = environmentOf(service);
        expect({ service, keys: [env.AWS_ACCESS_KEY_ID, env.AWS_SECRET_ACCESS_KEY] }).toEqual({ service, keys: [user, password] });
        expect({ service, volumes: compose.services[service].volumes }).toEqual({ service, volumes: undefined });
        expect({ service, dependsOn: compose.services[service].depends_on }).toMatchObject({ service, dependsOn: { [bucketJob]: { condition: 'service_completed_successfully' } } });
      }
    });

    it('gives each service a folder of its own, as the chart does (verification the root, fulfilment-delivery its sub-folder)', () => {
      expect(configOf('verification').S3_PREFIX).toBeUndefined();
      expect(configOf('fulfilment-delivery').S3_PREFIX).toBe('fulfilment-delivery');
    });
  });

  it('declares only the volumes its services mount', () => {
    const mounted = new Set(Object.values(compose.services).flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0])));
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual([...mounted].sort());
  });
});
