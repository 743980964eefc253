import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { type Container, type K8sObject, ofKind, type PodSpec, ROOT } from './chart-kit';

/**
 * The environment the chart gives a container, rebuilt from the rendered objects, and the apps' own config schemas
 * (apps/<service>/src/config.ts, `configSchema`) to check it with.
 */

/**
 * The service apps (apps/<service>), one per service of the chart: those whose main.ts runs a service host
 * (`runService` of @dsar/platform/host). Other apps, such as the `dsar` command-line tool, are not deployed.
 */
export function appNames(): string[] {
  const main = (app: string) => path.join(ROOT, 'apps', app, 'src/main.ts');
  return readdirSync(path.join(ROOT, 'apps'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(main(d.name)) && /\brunService\(/.test(readFileSync(main(d.name), 'utf8')))
    .map((d) => d.name)
    .sort();
}

export type ConfigSchema = z.ZodType & { shape?: Record<string, unknown> };

/** An app's config schema, as its main.ts loads it (loaded by path: tools may not import an app by a relative path). */
export async function appConfigSchema(app: string): Promise<ConfigSchema> {
  const module = (await import(path.join(ROOT, 'apps', app, 'src/config.ts'))) as { configSchema?: ConfigSchema };
  if (!module.configSchema) throw new Error(`apps/${app}/src/config.ts exports no configSchema`);
  return module.configSchema;
}

/** The variable names an app's schema knows (the keys of its object schema). */
export function schemaKeys(schema: ConfigSchema): Set<string> {
  if (!schema.shape) throw new Error('the config schema is not an object schema');
  return new Set(Object.keys(schema.shape));
}

/**
 * Variables a process reads outside its config schema: Node.js and npm themselves, the image's HOME (the root file
 * system is read-only), swc's project file (tools/scripts/run-ts.cjs), the time zone, and the static keys of the s3
 * storage driver, which the AWS SDK's default credential chain reads (docs/storage.md#the-s3-driver).
 */
export const VARIABLES_OUTSIDE_SCHEMA = new Set(['NODE_OPTIONS', 'HOME', 'TZ', 'SWC_NODE_PROJECT', 'NPM_CONFIG_CACHE', 'NPM_CONFIG_UPDATE_NOTIFIER', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);

let signingKeyPem: string | undefined;

/**
 * A plausible value, of the right form, for a variable the chart takes from a Secret (the tests never see the Secret).
 * Unknown names get a 48-character token, which a schema that expects something else rejects: then add it here.
 */
export function secretPlaceholder(variable: string): string {
  switch (variable) {
    case 'DATABASE_URL':
      return 'postgres://dsar:placeholder-password@postgres.example.internal:5432/dsar';
    case 'KAFKA_BROKERS':
      return 'kafka-0.kafka.example.internal:9092,kafka-1.kafka.example.internal:9092';
    case 'DSAR_API_KEYS':
      return JSON.stringify([{ token: 'x'.repeat(32), tenantId: 't', roles: ['admin'] }]);
    case 'AUTH_JWKS_URL':
      return 'https://issuer.example.com/.well-known/jwks.json';
    case 'AUTH_ISSUER':
      return 'https://issuer.example.com/';
    case 'AUTH_AUDIENCE':
      return 'dsar';
    case 'AUDIT_SIGNING_KEY':
      signingKeyPem ??= generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      return signingKeyPem;
    case 'STORAGE_MASTER_KEY':
      // The base64 of exactly 32 bytes (docs/storage.md).
      return Buffer.alloc(32, 0x5a).toString('base64');
    case 'STORAGE_PREVIOUS_MASTER_KEYS':
      // Earlier master keys while rotating: each the base64 of 32 bytes, comma-separated (docs/storage.md#master-key-rotation).
      return [0x4b, 0x4c].map((byte) => Buffer.alloc(32, byte).toString('base64')).join(',');
    case 'AWS_ACCESS_KEY_ID':
      // The s3 storage driver's static keys (read by the AWS SDK, not by a config schema).
      return 'AKIAPLACEHOLDER00000';
    case 'AWS_SECRET_ACCESS_KEY':
      return 'placeholder/secret/access/key/0123456789ab';
    case 'SMTP_URL':
      // The notifier's SMTP server, credentials in the URL (docs/notifications.md).
      return 'smtps://dsar:placeholder-password@smtp.example.internal:465';
    case 'SLACK_BOT_TOKEN':
      return 'xoxb-0000000000-placeholder';
    case 'MAIL_WEBHOOK_SECRET':
      // intake-gateway's Standard Webhooks secrets: whsec_ and the base64 of 24 to 64 bytes (docs/webhooks.md).
      return `whsec_${Buffer.alloc(32, 0x4d).toString('base64')}`;
    default:
      // INTERNAL_AUTH_KEY, AUTH_JWT_SECRET and other keys: 48 characters (the schemas ask for 32 or more).
      return 'placeholder-secret-value-0123456789abcdefghijklm';
  }
}

export interface ContainerEnvironment {
  /** Name to value, as the process would see it (Kubernetes order: envFrom, then env; later entries win). */
  env: Record<string, string>;
  /** Where each variable came from: `value`, `configMap <name>`, `secret <name>` (placeholder), ... */
  origin: Record<string, string>;
  /** What could not be resolved from the rendered objects (a missing ConfigMap, a Secret with unknown keys, ...). */
  problems: string[];
}

let fileDir: string | undefined;

/** A file holding a placeholder, for a *_FILE variable that points into a mounted Secret volume. */
function placeholderFile(variable: string, content: string): string {
  fileDir ??= mkdtempSync(path.join(tmpdir(), 'dsar-chart-env-'));
  const file = path.join(fileDir, variable);
  writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/** The keys a Secret will hold when an ExternalSecret of the release creates it (spec.target.name or its own name). */
function externalSecretKeys(objects: K8sObject[], secretName: string): string[] | undefined {
  for (const es of ofKind(objects, 'ExternalSecret')) {
    const spec = (es.spec ?? {}) as { target?: { name?: string; template?: { data?: Record<string, string> } }; data?: { secretKey: string }[]; dataFrom?: unknown[] };
    if ((spec.target?.name ?? es.metadata.name) !== secretName) continue;
    if (spec.dataFrom?.length && !spec.target?.template?.data) return undefined; // keys decided by the external store
    return [...(spec.data ?? []).map((d) => d.secretKey), ...Object.keys(spec.target?.template?.data ?? {})];
  }
  return undefined;
}

const expand = (value: string, env: Record<string, string>): string =>
  value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, name: string | undefined) => (m === '$$' ? '$' : name !== undefined && name in env ? env[name] : m));

/**
 * The environment of one container, from the rendered objects: literal values, ConfigMaps (envFrom and
 * configMapKeyRef) from the rendered ConfigMaps, and a placeholder (secretPlaceholder) for every value from a Secret.
 */
export function containerEnvironment(container: Container, pod: PodSpec, objects: K8sObject[]): ContainerEnvironment {
  const env: Record<string, string> = {};
  const origin: Record<string, string> = {};
  const problems: string[] = [];
  const configMap = (name: string): Record<string, string> | undefined => ofKind(objects, 'ConfigMap').find((c) => c.metadata.name === name)?.data;
  const renderedSecret = (name: string): K8sObject | undefined => ofKind(objects, 'Secret').find((s) => s.metadata.name === name);

  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const data = configMap(source.configMapRef.name);
      if (!data) {
        if (!source.configMapRef.optional) problems.push(`envFrom ConfigMap ${source.configMapRef.name} is not rendered by the chart`);
        continue;
      }
      for (const [k, v] of Object.entries(data)) {
        env[prefix + k] = String(v);
        origin[prefix + k] = `configMap ${source.configMapRef.name}`;
      }
    }
    if (source.secretRef) {
      const secret = renderedSecret(source.secretRef.name);
      const keys = secret ? Object.keys({ ...(secret.data ?? {}), ...(secret.stringData ?? {}) }) : externalSecretKeys(objects, source.secretRef.name);
      if (!keys) {
        problems.push(`envFrom Secret ${source.secretRef.name}: its keys are not known from the rendered objects (no ExternalSecret with spec.data names them)`);
        continue;
      }
      for (const k of keys) {
        env[prefix + k] = secretPlaceholder(prefix + k);
        origin[prefix + k] = `secret ${source.secretRef.name}`;
      }
    }
  }

  for (const e of container.env ?? []) {
    if (e.value !== undefined) {
      env[e.name] = expand(String(e.value), env);
      origin[e.name] = 'value';
    } else if (e.valueFrom?.secretKeyRef) {
      env[e.name] = secretPlaceholder(e.name);
      origin[e.name] = `secret ${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}${e.valueFrom.secretKeyRef.optional ? ' (optional)' : ''}`;
    } else if (e.valueFrom?.configMapKeyRef) {
      const { name, key, optional } = e.valueFrom.configMapKeyRef;
      const data = configMap(name);
      if (data && key in data) {
        env[e.name] = String(data[key]);
        origin[e.name] = `configMap ${name}/${key}`;
      } else if (!optional) problems.push(`${e.name}: ConfigMap ${name} key ${key} is not rendered by the chart`);
    } else if (e.valueFrom?.fieldRef || e.valueFrom?.resourceFieldRef) {
      env[e.name] = e.valueFrom.fieldRef ? `field-${e.valueFrom.fieldRef.fieldPath}` : '1';
      origin[e.name] = 'downward API';
    } else {
      env[e.name] = '';
      origin[e.name] = 'value';
    }
  }

  // *_FILE variables that point into a mounted Secret or ConfigMap volume: give the schema a readable file.
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith('_FILE') || !value) continue;
    const mount = (container.volumeMounts ?? []).find((m) => value === m.mountPath || value.startsWith(`${m.mountPath.replace(/\/$/, '')}/`));
    const volume = mount && (pod.volumes ?? []).find((v) => v.name === mount.name);
    if (volume?.secret) {
      env[name] = placeholderFile(name, secretPlaceholder(name.replace(/_FILE$/, '')));
      origin[name] = `secret volume ${volume.secret.secretName}`;
    } else if (volume?.configMap && mount) {
      const data = configMap(volume.configMap.name);
      const key = mount.subPath ?? path.basename(value);
      if (data && key in data) env[name] = placeholderFile(name, String(data[key]));
      else problems.push(`${name}=${value}: ConfigMap volume ${volume.configMap.name} has no key ${key}`);
    } else {
      problems.push(`${name}=${value}: no Secret or ConfigMap volume is mounted there`);
    }
  }
  return { env, origin, problems };
}

/** The environment as loadConfig (libs/platform/config) hands it to the schema: empty strings count as unset. */
export function asLoadConfigSees(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
}

/** One line per issue of a failed parse, `VARIABLE: message`. */
export function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] {
  return (result.error?.issues ?? []).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
}
