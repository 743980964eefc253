import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_SERVICE_PORTS } from '@dsar/platform/config';
import { appConfigSchema, appNames, type ConfigSchema, schemaKeys, secretPlaceholder } from './app-env';

/**
 * deploy/compose/compose.yaml against the code: every service runs its app with an environment that the app's own
 * config schema accepts (so every variable it requires is set, and every value parses), sets no variable the schema
 * does not know, listens on its default port, and is wired to the others as the Helm chart wires them.
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
  DSAR_API_KEYS: secretPlaceholder('DSAR_API_KEYS'),
  STORAGE_MASTER_KEY: secretPlaceholder('STORAGE_MASTER_KEY'),
};

/** Compose's interpolation, as far as the file uses it: `${NAME:?message}`, `${NAME:-default}` and `$$`. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{(\w+)(?::([?-])((?:[^{}]|\{[^}]*\})*))?\}/g, (_all, name: string, op?: string, rest?: string) => USER_SETTINGS[name] ?? (op === '-' ? (rest ?? '') : `<unset ${name}>`))
    .replace(/\$\$/g, '$');
}

const compose = parse(readFileSync(path.join(root, 'deploy/compose/compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; environment?: Record<string, string | number>; ports?: string[]; depends_on?: Record<string, unknown> }>;
};
const chartValues = parse(readFileSync(path.join(root, 'charts/dsar/values.yaml'), 'utf8')) as { services: Record<string, { port: number }> };

function environmentOf(service: string): Record<string, string> {
  const env = compose.services[service].environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(String(v))]));
}

describe('deploy/compose/compose.yaml', () => {
  it('runs every service of the product, and nothing the product does not have', () => {
    const products = Object.keys(compose.services).filter((s) => compose.services[s].command?.some((c) => c.startsWith('apps/')));
    expect(products.sort()).toEqual(SERVICES);
  });

  describe.each(SERVICES)('%s', (service) => {
    const schema = () => schemas.get(service)!;

    it('runs its own app', () => {
      expect(compose.services[service].command).toEqual(['node', 'tools/scripts/run-ts.cjs', `apps/${service}/src/main.ts`]);
    });

    it('has an environment its config schema accepts', () => {
      const parsed = schema().safeParse(environmentOf(service));
      expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
    });

    it('sets no variable its config schema does not know', () => {
      const known = schemaKeys(schema());
      expect(Object.keys(environmentOf(service)).filter((k) => !known.has(k))).toEqual([]);
    });

    it('listens on its default port, the one the chart gives it', () => {
      const port = Number(environmentOf(service).PORT);
      expect(port).toBe(DEFAULT_SERVICE_PORTS[service as keyof typeof DEFAULT_SERVICE_PORTS]);
      expect(port).toBe(chartValues.services[service].port);
    });
  });

  it('points the gateway and intake-gateway at the services they call, on their ports', () => {
    const gateway = environmentOf('api-gateway');
    for (const service of SERVICES.filter((s) => s !== 'api-gateway')) {
      expect(gateway[`${service.toUpperCase().replace(/-/g, '_')}_URL`]).toBe(`http://${service}:${chartValues.services[service].port}`);
    }
    expect(environmentOf('intake-gateway').LIFECYCLE_CLOCK_URL).toBe(`http://lifecycle-clock:${chartValues.services['lifecycle-clock'].port}`);
  });

  it('starts the domain services only after the migrations and topics are in place', () => {
    for (const service of SERVICES.filter((s) => s !== 'api-gateway')) {
      expect(compose.services[service].depends_on).toMatchObject({ provision: { condition: 'service_completed_successfully' } });
    }
  });
});
