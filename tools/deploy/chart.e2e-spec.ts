import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { appConfigSchema, appNames, asLoadConfigSees, containerEnvironment, issuesOf, schemaKeys, VARIABLES_OUTSIDE_SCHEMA } from './app-env';
import {
  allContainers,
  CHART,
  componentOf,
  type Container,
  CUSTOM_RESOURCE_KINDS,
  isEmptySelector,
  type K8sObject,
  KUBE_VERSION,
  type LabelSelector,
  NAMESPACE,
  ofKind,
  podTemplateOf,
  ref,
  render,
  ROOT,
  run,
  scenarioFiles,
  scenarioName,
  selects,
  type SecurityContext,
  templateArgs,
  type Tools,
  installTools,
} from './chart-kit';
import { normalizedCell, normalizedValue, valueLeaves, valuesTable } from './values-table';

/**
 * The Helm chart (charts/dsar), rendered with the pinned helm of tools/scripts/helm.sh for every CI scenario
 * (charts/dsar/ci/*.yaml): helm lint --strict, schema validation of every object with kubernetes-validate (offline
 * Kubernetes JSON schemas), unit tests on the rendered manifests, the environment each service gets checked against
 * the service's own zod config schema, and the values table of charts/dsar/README.md against values.yaml.
 *
 * Run alone with `npm run chart:test`; it needs no PostgreSQL or Kafka.
 */

const SCENARIOS = scenarioFiles();
const SERVICES = appNames();
const GATEWAY = 'api-gateway';
/** Where the checksum tests start from: the minimal scenario (the chart's defaults plus the required values). */
const BASE = SCENARIOS.find((f) => scenarioName(f) === 'minimal') ?? SCENARIOS[0];

let tools: Tools;
const rendered = new Map<string, K8sObject[] | Error>();

async function renderOnce(key: string, valuesFiles: string[], set: string[] = []): Promise<K8sObject[]> {
  if (!rendered.has(key)) {
    try {
      rendered.set(key, (await render(tools, { valuesFiles, set })).objects);
    } catch (e) {
      rendered.set(key, e as Error);
    }
  }
  const result = rendered.get(key)!;
  if (result instanceof Error) throw result;
  return result;
}

const objectsOf = (file: string): Promise<K8sObject[]> => renderOnce(file, [file]);

beforeAll(() => {
  tools = installTools();
}, 600_000);

it('the chart has CI scenarios (charts/dsar/ci/*.yaml)', () => {
  expect(SCENARIOS.map((f) => path.relative(CHART, f))).not.toEqual([]);
});

it('there are eight services (apps/*), each with a config schema', async () => {
  expect(SERVICES).toHaveLength(8);
  for (const app of SERVICES) expect(schemaKeys(await appConfigSchema(app)).size).toBeGreaterThan(0);
});

// ---- helpers of the manifest assertions ----------------------------------------------------------------------------

const workloads = (objects: K8sObject[]): K8sObject[] => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');

/** One message per container that breaks `check`, `<Kind>/<name> container <c>: <problem>`. */
function containerProblems(objects: K8sObject[], kinds: string[], check: (c: Container, o: K8sObject) => string[]): string[] {
  return objects.filter((o) => kinds.includes(o.kind)).flatMap((o) => allContainers(podTemplateOf(o).spec).flatMap((c) => check(c, o).map((p) => `${ref(o)} container ${c.name}: ${p}`)));
}

/** The effective security context setting: the container's, else the pod's (for the fields a pod may set). */
function effective<K extends keyof SecurityContext>(c: Container, o: K8sObject, key: K): SecurityContext[K] {
  return c.securityContext?.[key] ?? podTemplateOf(o).spec.securityContext?.[key];
}

const deploymentOf = (objects: K8sObject[], service: string): K8sObject | undefined => ofKind(objects, 'Deployment').find((d) => componentOf(d) === service);

const mainContainer = (d: K8sObject, service: string): Container => {
  const pod = podTemplateOf(d).spec;
  return pod.containers.find((c) => c.name === service) ?? pod.containers[0];
};

const checksumsByService = (objects: K8sObject[]): Record<string, string | undefined> =>
  Object.fromEntries(ofKind(objects, 'Deployment').map((d) => [componentOf(d) ?? d.metadata.name, podTemplateOf(d).metadata?.annotations?.['checksum/config']]));

/** The Service names an Ingress or HTTPRoute sends traffic to. */
function routeBackends(o: K8sObject): string[] {
  const spec = (o.spec ?? {}) as {
    defaultBackend?: { service?: { name: string } };
    rules?: { http?: { paths?: { backend?: { service?: { name: string } } }[] }; backendRefs?: { name: string; kind?: string }[] }[];
  };
  if (o.kind === 'Ingress') {
    return [spec.defaultBackend?.service?.name, ...(spec.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend?.service?.name))].filter((n): n is string => !!n);
  }
  return (spec.rules ?? []).flatMap((r) => (r.backendRefs ?? []).filter((b) => !b.kind || b.kind === 'Service').map((b) => b.name));
}

const commandText = (c: Container): string => [...(c.command ?? []), ...(c.args ?? [])].join(' ');

// ---- per scenario ----------------------------------------------------------------------------------------------------

for (const file of SCENARIOS) {
  const scenario = path.relative(CHART, file);

  describe(`scenario ${scenario}`, () => {
    it('passes helm lint --strict', async () => {
      const lint = await run(tools.helm, ['lint', '--strict', CHART, '-f', file, '--namespace', NAMESPACE, '--kube-version', KUBE_VERSION]);
      if (lint.code !== 0) throw new Error(`helm lint --strict -f ${scenario} exited with ${lint.code}:\n${lint.stdout}\n${lint.stderr}`);
    });

    it(`renders objects valid against the Kubernetes ${KUBE_VERSION} schemas (kubernetes-validate --strict; custom resources skipped)`, async () => {
      const objects = await objectsOf(file);
      expect(objects.length).toBeGreaterThan(0);
      for (const o of objects) {
        expect(typeof o.apiVersion).toBe('string');
        expect(typeof o.kind).toBe('string');
        expect(typeof o.metadata?.name).toBe('string');
      }
      // Custom resources have no schema there; they are skipped by kind, every other kind must have one.
      const checked = objects.filter((o) => !CUSTOM_RESOURCE_KINDS.has(o.kind));
      const stream = checked.map((o) => stringify(o)).join('---\n');
      const result = await run(tools.kubernetesValidate, ['--strict', '-k', KUBE_VERSION, '-'], stream);
      const output = `${result.stdout}\n${result.stderr}`;
      const failures = output.split('\n').filter((l) => /^(ERROR|WARN)/.test(l.trim()));
      expect(failures).toEqual([]);
      expect(result.code).toBe(0);
      expect(output.match(/passed for resource/g)?.length ?? 0).toBe(checked.length);
    });

    it('runs the eight services as Deployments, and only them', async () => {
      const objects = await objectsOf(file);
      expect(
        ofKind(objects, 'Deployment')
          .map((d) => componentOf(d))
          .sort(),
      ).toEqual(SERVICES);
    });

    it('gives every container of every Deployment and Job requests and a memory limit', async () => {
      const problems = containerProblems(await objectsOf(file), ['Deployment', 'Job'], (c) => {
        const p: string[] = [];
        if (!c.resources?.requests || Object.keys(c.resources.requests).length === 0) p.push('no resources.requests');
        if (c.resources?.requests && (c.resources.requests.cpu === undefined || c.resources.requests.memory === undefined)) p.push('requests without cpu and memory');
        if (c.resources?.limits?.memory === undefined) p.push('no resources.limits.memory');
        return p;
      });
      expect(problems).toEqual([]);
    });

    it('runs every container of every Deployment and Job with the hardened security context', async () => {
      const objects = await objectsOf(file);
      expect(workloads(objects).length).toBeGreaterThan(0);
      const problems = containerProblems(objects, ['Deployment', 'Job'], (c, o) => {
        const p: string[] = [];
        if (effective(c, o, 'runAsNonRoot') !== true) p.push('runAsNonRoot is not true (pod or container)');
        if (c.securityContext?.readOnlyRootFilesystem !== true) p.push('readOnlyRootFilesystem is not true');
        if (c.securityContext?.allowPrivilegeEscalation !== false) p.push('allowPrivilegeEscalation is not false');
        if (!(c.securityContext?.capabilities?.drop ?? []).includes('ALL')) p.push('capabilities.drop does not contain ALL');
        if ((c.securityContext?.capabilities?.add ?? []).length > 0) p.push(`adds capabilities ${c.securityContext?.capabilities?.add?.join(',')}`);
        if (effective(c, o, 'seccompProfile')?.type !== 'RuntimeDefault') p.push('seccompProfile is not RuntimeDefault (pod or container)');
        return p;
      });
      expect(problems).toEqual([]);
    });

    it('probes every Deployment container (startup, liveness, readiness) on /health/live or /health/ready', async () => {
      const problems = containerProblems(await objectsOf(file), ['Deployment'], (c) =>
        (['startupProbe', 'livenessProbe', 'readinessProbe'] as const).flatMap((probe) => {
          const httpPath = c[probe]?.httpGet?.path;
          if (!c[probe]) return [`no ${probe}`];
          return httpPath === '/health/live' || httpPath === '/health/ready' ? [] : [`${probe} is not an httpGet on /health/live or /health/ready (${httpPath})`];
        }),
      );
      expect(problems).toEqual([]);
    });

    it('mounts no service account token in any Deployment pod', async () => {
      const objects = await objectsOf(file);
      const mounting = ofKind(objects, 'Deployment')
        .filter((d) => podTemplateOf(d).spec.automountServiceAccountToken !== false)
        .map(ref);
      expect(mounting).toEqual([]);
    });

    it('selects the pods of every service with a NetworkPolicy of its own', async () => {
      const objects = await objectsOf(file);
      const policies = ofKind(objects, 'NetworkPolicy');
      const uncovered = SERVICES.filter((service) => {
        const deployment = deploymentOf(objects, service);
        if (!deployment) return true;
        const labels = { ...(podTemplateOf(deployment).metadata?.labels ?? {}) };
        return !policies.some((p) => {
          const selector = (p.spec as { podSelector?: LabelSelector } | undefined)?.podSelector;
          return !isEmptySelector(selector) && selects(selector, labels);
        });
      });
      expect(uncovered).toEqual([]);
    });

    it('exposes only the api-gateway (Ingress or HTTPRoute)', async () => {
      const objects = await objectsOf(file);
      const gateway = deploymentOf(objects, GATEWAY);
      const gatewayServices = ofKind(objects, 'Service')
        .filter((s) => gateway && selects({ matchLabels: (s.spec as { selector?: Record<string, string> }).selector ?? {} }, podTemplateOf(gateway).metadata?.labels ?? {}))
        .map((s) => s.metadata.name);
      const routes = objects.filter((o) => o.kind === 'Ingress' || o.kind === 'HTTPRoute');
      const elsewhere = routes.flatMap((r) =>
        routeBackends(r)
          .filter((b) => !gatewayServices.includes(b))
          .map((b) => `${ref(r)} -> ${b}`),
      );
      expect(elsewhere).toEqual([]);
      for (const r of routes) expect(routeBackends(r).length).toBeGreaterThan(0);
    });

    it('only references Secrets (renders no Secret)', async () => {
      expect(ofKind(await objectsOf(file), 'Secret').map(ref)).toEqual([]);
    });

    it('runs its Jobs as pre-install,pre-upgrade hooks with a deadline', async () => {
      const problems = ofKind(await objectsOf(file), 'Job').flatMap((j) => {
        const hooks = (j.metadata.annotations?.['helm.sh/hook'] ?? '').split(',').map((h) => h.trim());
        const p: string[] = [];
        if (!hooks.includes('pre-install') || !hooks.includes('pre-upgrade')) p.push(`${ref(j)}: helm.sh/hook is "${hooks.join(',')}", not pre-install,pre-upgrade`);
        const deadline = (j.spec as { activeDeadlineSeconds?: number }).activeDeadlineSeconds;
        if (!(typeof deadline === 'number' && deadline > 0)) p.push(`${ref(j)}: no activeDeadlineSeconds`);
        return p;
      });
      expect(problems).toEqual([]);
    });

    describe('gives every service the environment its config schema requires in distributed mode', () => {
      for (const service of SERVICES) {
        it(service, async () => {
          const objects = await objectsOf(file);
          const deployment = deploymentOf(objects, service);
          if (!deployment) throw new Error(`no Deployment of ${service}`);
          const container = mainContainer(deployment, service);
          const { env, origin, problems } = containerEnvironment(container, podTemplateOf(deployment).spec, objects);
          expect(problems).toEqual([]);

          const schema = await appConfigSchema(service);
          const result = schema.safeParse(asLoadConfigSees(env));
          if (!result.success) {
            throw new Error(
              `apps/${service}/src/config.ts rejects the environment the chart gives it:\n  ${issuesOf(result).join('\n  ')}\n` +
                `environment (secrets are placeholders):\n  ${Object.keys(env)
                  .sort()
                  .map((k) => `${k} (${origin[k]})`)
                  .join('\n  ')}`,
            );
          }
          const config = result.data as Record<string, unknown>;

          // Every variable the chart sets is one the app reads (a typo'd name would be ignored silently).
          const known = schemaKeys(schema);
          expect(
            Object.keys(env)
              .filter((k) => !known.has(k) && !VARIABLES_OUTSIDE_SCHEMA.has(k))
              .sort(),
          ).toEqual([]);

          // Distributed mode: PostgreSQL and Kafka, not the embedded defaults.
          if (known.has('DB_DRIVER')) expect(config.DB_DRIVER).toBe('postgres');
          if (known.has('BUS_DRIVER')) expect(config.BUS_DRIVER).toBe('kafka');
          if (known.has('DB_MIGRATIONS')) expect(config.DB_MIGRATIONS).toBe('check');
          expect(env.INTERNAL_AUTH_KEY ?? env.INTERNAL_AUTH_KEY_FILE).toBeDefined();
          if (service === GATEWAY) expect(['DSAR_API_KEYS', 'AUTH_JWT_SECRET', 'AUTH_JWKS_URL'].filter((k) => env[k] !== undefined)).not.toEqual([]);

          // The port the process listens on is the container's port, and every upstream URL (whose default is a
          // loopback address) is set to a Service of the release with that service's port.
          const ports = (container as Container & { ports?: { containerPort: number }[] }).ports ?? [];
          expect(ports.map((p) => p.containerPort)).toContain(Number(config.PORT));
          for (const variable of [...known].filter((k) => /_URL$/.test(k) && k !== 'DATABASE_URL' && !k.startsWith('AUTH_'))) {
            const upstream = variable.replace(/_URL$/, '').toLowerCase().replace(/_/g, '-');
            if (!SERVICES.includes(upstream)) continue;
            expect({ variable, value: env[variable] }).toEqual({ variable, value: expect.any(String) });
            const url = new URL(env[variable]);
            const target = ofKind(objects, 'Service').find((s) => s.metadata.name === url.hostname.split('.')[0]);
            expect({ variable, service: target?.metadata.name, component: target?.metadata.labels?.['app.kubernetes.io/component'] }).toEqual({
              variable,
              service: url.hostname.split('.')[0],
              component: upstream,
            });
            const servicePorts = ((target?.spec as { ports?: { port: number }[] }).ports ?? []).map((p) => p.port);
            expect(servicePorts).toContain(Number(url.port || 80));
          }
        });
      }
    });

    it('gives the migration hook the database and the topics hook the brokers', async () => {
      const jobs = ofKind(await objectsOf(file), 'Job');
      for (const job of jobs) {
        for (const c of podTemplateOf(job).spec.containers) {
          const text = commandText(c);
          const { env, problems } = containerEnvironment(c, podTemplateOf(job).spec, await objectsOf(file));
          expect(problems).toEqual([]);
          if (/migrat/.test(text)) expect({ job: ref(job), DATABASE_URL: /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') }).toEqual({ job: ref(job), DATABASE_URL: true });
          if (/topics/.test(text)) expect({ job: ref(job), KAFKA_BROKERS: /^[^,\s]+:\d+(,[^,\s]+:\d+)*$/.test(env.KAFKA_BROKERS ?? '') }).toEqual({ job: ref(job), KAFKA_BROKERS: true });
        }
      }
    });
  });
}

// ---- checksums, hooks and exposure, from the base scenario -----------------------------------------------------------

describe(`from the base scenario (${BASE ? path.relative(CHART, BASE) : 'none'})`, () => {
  const base = (): Promise<K8sObject[]> => (BASE ? objectsOf(BASE) : Promise.reject(new Error('charts/dsar/ci has no scenario')));

  it('annotates every Deployment pod with checksum/config', async () => {
    const checksums = checksumsByService(await base());
    expect(Object.keys(checksums).sort()).toEqual(SERVICES);
    expect(Object.entries(checksums).filter(([, c]) => !c)).toEqual([]);
  });

  it('changes the checksum/config of every Deployment when a shared setting changes (env.LOG_LEVEL)', async () => {
    const before = checksumsByService(await base());
    const after = checksumsByService(await renderOnce('base+LOG_LEVEL', [BASE], ['env.LOG_LEVEL=debug']));
    expect(Object.keys(after).sort()).toEqual(SERVICES);
    expect(SERVICES.filter((s) => !before[s] || before[s] === after[s])).toEqual([]);
  });

  it("changes only that service's checksum/config when one service's env changes", async () => {
    const before = checksumsByService(await base());
    const after = checksumsByService(await renderOnce('base+notifier.env', [BASE], ['services.notifier.env.LOG_LEVEL=debug']));
    expect(SERVICES.filter((s) => before[s] !== after[s])).toEqual(['notifier']);
  });

  it('gives the notifier, and no other service, the SMTP URL and Slack token of notifications.existingSecret, the DKIM key as a file, LIFECYCLE_CLOCK_URL, FULFILMENT_DELIVERY_URL, PORTAL_URL and egress to SMTP and Slack', async () => {
    const secret = 'dsar-notifications';
    const objects = await renderOnce(
      'base+notifications',
      [BASE],
      [
        `notifications.existingSecret=${secret}`,
        'notifications.dkim.domain=example.com',
        'notifications.dkim.selector=dsar',
        'notifications.slackChannel=#privacy-ops',
        'notifications.operatorEmails=ops@example.com\\,dpo@example.com',
        'notifications.retry.maxMs=7200000',
      ],
    );
    const lifecycleClock = ofKind(objects, 'Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === 'lifecycle-clock');
    const lifecyclePort = ((lifecycleClock?.spec as { ports?: { port: number }[] }).ports ?? [])[0]?.port;
    const fulfilmentDelivery = ofKind(objects, 'Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === 'fulfilment-delivery');
    const fulfilmentPort = ((fulfilmentDelivery?.spec as { ports?: { port: number }[] }).ports ?? [])[0]?.port;
    const notifierPolicy = ofKind(objects, 'NetworkPolicy').find((p) => p.metadata.labels?.['app.kubernetes.io/component'] === 'notifier');
    type Rule = { to?: unknown[]; ports?: { port?: number | string }[] };
    const egressPorts = (policy: K8sObject | undefined): number[] =>
      (((policy?.spec as { egress?: Rule[] } | undefined)?.egress ?? []) as Rule[]).flatMap((r) => (r.ports ?? []).map((p) => Number(p.port)));

    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const pod = podTemplateOf(deployment).spec;
      const { env, origin, problems } = containerEnvironment(mainContainer(deployment, service), pod, objects);
      expect(problems).toEqual([]);
      const fromSecret = Object.keys(origin).filter((k) => origin[k].startsWith(`secret ${secret}`) || origin[k] === `secret volume ${secret}`);
      const mountsSecret = (pod.volumes ?? []).some((v) => v.secret?.secretName === secret);
      if (service === 'notifier') {
        expect({ SMTP_URL: origin.SMTP_URL, SLACK_BOT_TOKEN: origin.SLACK_BOT_TOKEN }).toEqual({
          SMTP_URL: `secret ${secret}/SMTP_URL (optional)`,
          SLACK_BOT_TOKEN: `secret ${secret}/SLACK_BOT_TOKEN (optional)`,
        });
        expect(origin.NOTIFIER_DKIM_PRIVATE_KEY_FILE).toBe(`secret volume ${secret}`);
        expect(fromSecret.sort()).toEqual(['NOTIFIER_DKIM_PRIVATE_KEY_FILE', 'SLACK_BOT_TOKEN', 'SMTP_URL']);
        expect(env.LIFECYCLE_CLOCK_URL).toBe(`http://${lifecycleClock?.metadata.name}:${lifecyclePort}`);
        // It asks fulfilment-delivery for the link of a delivery by email, to the download page of the base scenario.
        expect(env.FULFILMENT_DELIVERY_URL).toBe(`http://${fulfilmentDelivery?.metadata.name}:${fulfilmentPort}`);
        expect(env.PORTAL_URL).toBe('https://dsar.example.com/portal/');
        expect({ emails: env.NOTIFIER_OPERATOR_EMAILS, channel: env.NOTIFIER_SLACK_CHANNEL, maxMs: env.NOTIFIER_RETRY_MAX_MS, dkim: env.NOTIFIER_DKIM_DOMAIN }).toEqual({
          emails: 'ops@example.com,dpo@example.com',
          channel: '#privacy-ops',
          maxMs: '7200000',
          dkim: 'example.com',
        });
        const parsed = (await appConfigSchema(service)).safeParse(asLoadConfigSees(env));
        expect(issuesOf(parsed)).toEqual([]);
      } else {
        expect({ service, fromSecret, mountsSecret }).toEqual({ service, fromSecret: [], mountsSecret: false });
        // NOTIFIER_URL is the gateway's upstream, not a notifier setting.
        expect({ service, notifierVariables: Object.keys(env).filter((k) => /^(SMTP_|SLACK_|NOTIFIER_|PORTAL_)/.test(k) && k !== 'NOTIFIER_URL') }).toEqual({ service, notifierVariables: [] });
        // The other callers of lifecycle-clock: the gateway, intake-gateway, verification, fulfilment-delivery and policy-registry (retention report).
        if (!['api-gateway', 'intake-gateway', 'verification', 'fulfilment-delivery', 'policy-registry'].includes(service))
          expect({ service, LIFECYCLE_CLOCK_URL: env.LIFECYCLE_CLOCK_URL }).toEqual({ service, LIFECYCLE_CLOCK_URL: undefined });
        const policy = ofKind(objects, 'NetworkPolicy').find((p) => p.metadata.labels?.['app.kubernetes.io/component'] === service);
        expect({ service, smtp: egressPorts(policy).filter((p) => p === 465 || p === 587) }).toEqual({ service, smtp: [] });
      }
    }
    // The notifier reaches lifecycle-clock, fulfilment-delivery, the SMTP server (465, 587) and Slack (443).
    expect(egressPorts(notifierPolicy)).toEqual(expect.arrayContaining([lifecyclePort, fulfilmentPort, 465, 587, 443]));
    // Without the Secret: no SMTP or Slack variables, and no egress to them.
    const plain = await base();
    const plainNotifier = deploymentOf(plain, 'notifier')!;
    const plainEnv = containerEnvironment(mainContainer(plainNotifier, 'notifier'), podTemplateOf(plainNotifier).spec, plain).env;
    expect([plainEnv.SMTP_URL, plainEnv.SLACK_BOT_TOKEN, plainEnv.NOTIFIER_DKIM_PRIVATE_KEY_FILE]).toEqual([undefined, undefined, undefined]);
    const plainPolicy = ofKind(plain, 'NetworkPolicy').find((p) => p.metadata.labels?.['app.kubernetes.io/component'] === 'notifier');
    expect(egressPorts(plainPolicy).filter((p) => [443, 465, 587].includes(p))).toEqual([]);
  });

  it("gives the notifier the download page's address: notifications.portalUrl, else console.publicUrl, else the Ingress's first host; refuses to render without one", async () => {
    const portalUrlOf = async (key: string, set: string[]) => {
      const objects = await renderOnce(key, [BASE], ['notifications.portalUrl=', ...set]);
      const notifier = deploymentOf(objects, 'notifier')!;
      return containerEnvironment(mainContainer(notifier, 'notifier'), podTemplateOf(notifier).spec, objects).env.PORTAL_URL;
    };
    expect(await portalUrlOf('base+portal-console', ['console.publicUrl=https://privacy.example.org/'])).toBe('https://privacy.example.org/portal/');
    expect(
      await portalUrlOf('base+portal-ingress-tls', [
        'ingress.enabled=true',
        'ingress.hosts[0].host=dsar.example.net',
        'ingress.tls[0].secretName=dsar-tls',
        'ingress.tls[0].hosts[0]=dsar.example.net',
      ]),
    ).toBe('https://dsar.example.net/portal/');
    expect(await portalUrlOf('base+portal-ingress', ['ingress.enabled=true', 'ingress.hosts[0].host=dsar.internal.example'])).toBe('http://dsar.internal.example/portal/');
    expect(await portalUrlOf('base+portal-both', ['notifications.portalUrl=https://p.example.org/portal/', 'console.publicUrl=https://c.example.org'])).toBe('https://p.example.org/portal/');
    const none = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['notifications.portalUrl='] }));
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/notifications\.portalUrl: give the public address of the person's download page/);
    const malformed = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['notifications.portalUrl=https://dsar.example.org/'] }));
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toMatch(/portalUrl/);
  });

  it('refuses half a DKIM configuration, and DKIM without a Secret for the key', async () => {
    const half = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['notifications.existingSecret=n', 'notifications.dkim.domain=example.com'] }));
    expect(half.code).not.toBe(0);
    expect(half.stderr).toMatch(/notifications\.dkim: give both domain and selector/);
    const keyless = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['notifications.dkim.domain=example.com', 'notifications.dkim.selector=dsar'] }));
    expect(keyless.code).not.toBe(0);
    expect(keyless.stderr).toMatch(/notifications\.dkim: DKIM signing needs the private key/);
  });

  it('gives intake-gateway, and no other service, the webhook secrets of webhooks.existingSecret and INBOUND_ROUTES; refuses routes without a secret', async () => {
    const secret = 'dsar-webhooks';
    const routes = [
      { mailbox: 'privacy@example.com', tenantId: 'acme', jurisdiction: 'DE' },
      { slackTeamId: 'T0123ABCD', slackChannelId: 'C0456EFGH', tenantId: 'acme', workspaceId: 'us', jurisdiction: 'US-CA' },
    ];
    const routesFile = path.join(mkdtempSync(path.join(tmpdir(), 'dsar-webhooks-')), 'routes.yaml');
    writeFileSync(routesFile, stringify({ webhooks: { inboundRoutes: routes } }));
    const objects = await renderOnce('base+webhooks', [BASE, routesFile], [`webhooks.existingSecret=${secret}`]);
    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const { env, origin, problems } = containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, objects);
      expect(problems).toEqual([]);
      const fromSecret = Object.keys(origin).filter((k) => origin[k].startsWith(`secret ${secret}`));
      if (service === 'intake-gateway') {
        expect(fromSecret.sort()).toEqual(['MAIL_WEBHOOK_SECRET', 'SLACK_SIGNING_SECRET']);
        expect(origin.MAIL_WEBHOOK_SECRET).toBe(`secret ${secret}/MAIL_WEBHOOK_SECRET (optional)`);
        expect(JSON.parse(env.INBOUND_ROUTES)).toEqual(routes);
        expect(issuesOf((await appConfigSchema(service)).safeParse(asLoadConfigSees(env)))).toEqual([]);
      } else {
        expect({ service, fromSecret, routes: env.INBOUND_ROUTES }).toEqual({ service, fromSecret: [], routes: undefined });
      }
    }
    const unsigned = await run(tools.helm, templateArgs({ valuesFiles: [BASE, routesFile] }));
    expect(unsigned.code).not.toBe(0);
    expect(unsigned.stderr).toMatch(/webhooks\.inboundRoutes: routed messages are only taken signed/);
  });

  it('gives the notifier and intake-gateway, and no other service, REQUEST_REFERENCE_KEY of requestReference.existingSecret; refuses to render without it', async () => {
    const objects = await base();
    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const { origin } = containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, objects);
      const expected = ['notifier', 'intake-gateway'].includes(service) ? 'secret dsar-request-reference/REQUEST_REFERENCE_KEY' : undefined;
      expect({ service, REQUEST_REFERENCE_KEY: origin.REQUEST_REFERENCE_KEY }).toEqual({ service, REQUEST_REFERENCE_KEY: expected });
    }
    const keyless = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['requestReference.existingSecret='] }));
    expect(keyless.code).not.toBe(0);
    expect(keyless.stderr).toMatch(/requestReference\.existingSecret: name an existing Secret holding REQUEST_REFERENCE_KEY/);
  });

  it('gives lifecycle-clock, and no other service, IDENTITY_INDEX_KEY of identityIndex.existingSecret; refuses to render without it', async () => {
    const objects = await base();
    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const { origin } = containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, objects);
      const expected = service === 'lifecycle-clock' ? 'secret dsar-identity-index/IDENTITY_INDEX_KEY' : undefined;
      expect({ service, IDENTITY_INDEX_KEY: origin.IDENTITY_INDEX_KEY }).toEqual({ service, IDENTITY_INDEX_KEY: expected });
    }
    const keyless = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['identityIndex.existingSecret='] }));
    expect(keyless.code).not.toBe(0);
    expect(keyless.stderr).toMatch(/identityIndex\.existingSecret: name an existing Secret holding IDENTITY_INDEX_KEY/);
    // A key of the service's own env stands in for the Secret.
    const own = await run(tools.helm, templateArgs({ valuesFiles: [BASE], set: ['identityIndex.existingSecret=', 'services.lifecycle-clock.env.IDENTITY_INDEX_KEY_FILE=/var/run/identity/key'] }));
    expect({ code: own.code, stderr: own.stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/identityIndex/) });
    // With externalSecrets.enabled, its Secret is among those the chart asks the operator for.
    const external = SCENARIOS.find((f) => scenarioName(f) === 'external-secrets');
    if (!external) throw new Error('charts/dsar/ci has no external-secrets scenario');
    expect(ofKind(await objectsOf(external), 'ExternalSecret').map((o) => o.metadata.name)).toContain('prod-dsar-identity-index');
  });

  it('gives verification and fulfilment-delivery, and no other service, the previous master keys of storage.previousMasterKeys', async () => {
    const secret = 'dsar-storage-master-key';
    const objects = await renderOnce(
      'base+previousMasterKeys',
      [BASE],
      [`storage.masterKey.existingSecret=${secret}`, `storage.previousMasterKeys.existingSecret=${secret}`, 'storage.previousMasterKeys.key=previous-keys'],
    );
    const keepers = ['fulfilment-delivery', 'verification'];
    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const { env, origin, problems } = containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, objects);
      expect(problems).toEqual([]);
      if (keepers.includes(service)) {
        expect({ service, previous: origin.STORAGE_PREVIOUS_MASTER_KEYS, current: origin.STORAGE_MASTER_KEY }).toEqual({
          service,
          previous: `secret ${secret}/previous-keys`,
          current: `secret ${secret}/STORAGE_MASTER_KEY`,
        });
        expect(issuesOf((await appConfigSchema(service)).safeParse(asLoadConfigSees(env)))).toEqual([]);
      } else {
        expect({ service, previous: env.STORAGE_PREVIOUS_MASTER_KEYS }).toEqual({ service, previous: undefined });
      }
    }
    // Without it (the default): no previous keys anywhere.
    const plain = await base();
    for (const service of keepers) {
      const deployment = deploymentOf(plain, service)!;
      expect(containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, plain).env.STORAGE_PREVIOUS_MASTER_KEYS).toBeUndefined();
    }
  });

  describe('retention (docs/retention.md)', () => {
    /** The services that own a retention class: they sweep it, and policy-registry's retention report asks them. */
    const OWNERS = ['audit-ledger', 'fulfilment-delivery', 'lifecycle-clock', 'notifier', 'verification'];
    const urlVariable = (service: string) => `${service.toUpperCase().replace(/-/g, '_')}_URL`;
    const component = (o: K8sObject | undefined) => o?.metadata.labels?.['app.kubernetes.io/component'];
    const environmentOf = (objects: K8sObject[], service: string) => {
      const deployment = deploymentOf(objects, service);
      if (!deployment) throw new Error(`no Deployment of ${service}`);
      const { env, problems } = containerEnvironment(mainContainer(deployment, service), podTemplateOf(deployment).spec, objects);
      expect(problems).toEqual([]);
      return env;
    };
    const retentionVariables = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('RETENTION_')));

    it("has five owners, as the services' config schemas say (RETENTION_SWEEP_* read by them, their URLs by policy-registry)", async () => {
      const readers: string[] = [];
      for (const service of SERVICES) if (schemaKeys(await appConfigSchema(service)).has('RETENTION_SWEEP_INTERVAL_MS')) readers.push(service);
      expect(readers).toEqual(OWNERS);
      const registryKeys = schemaKeys(await appConfigSchema('policy-registry'));
      expect(SERVICES.filter((s) => registryKeys.has(urlVariable(s)))).toEqual(OWNERS);
    });

    it("gives policy-registry the URLs of the five owners, each pointing at that owner's Service and port, and no other upstream URL", async () => {
      const objects = await base();
      const env = environmentOf(objects, 'policy-registry');
      expect(SERVICES.filter((s) => env[urlVariable(s)] !== undefined)).toEqual(OWNERS);
      for (const owner of OWNERS) {
        const service = ofKind(objects, 'Service').find((s) => component(s) === owner);
        const port = ((service?.spec as { ports?: { port: number }[] } | undefined)?.ports ?? [])[0]?.port;
        expect({ owner, url: env[urlVariable(owner)] }).toEqual({ owner, url: `http://${service?.metadata.name}:${port}` });
      }
    });

    it('lets policy-registry call the five owners through the NetworkPolicies (its egress, their ingress), on their ports', async () => {
      const objects = await base();
      const policies = ofKind(objects, 'NetworkPolicy');
      const policyOf = (service: string) => policies.find((p) => component(p) === service);
      type Peer = { podSelector?: LabelSelector };
      type Rule = { to?: Peer[]; from?: Peer[]; ports?: { port?: number | string }[] };
      const registryLabels = podTemplateOf(deploymentOf(objects, 'policy-registry')!).metadata?.labels ?? {};
      const egress = ((policyOf('policy-registry')?.spec as { egress?: Rule[] }).egress ?? []) as Rule[];
      for (const owner of OWNERS) {
        const ownerLabels = podTemplateOf(deploymentOf(objects, owner)!).metadata?.labels ?? {};
        const port = (objects.find((o) => o.kind === 'Service' && component(o) === owner)?.spec as { ports: { port: number }[] }).ports[0].port;
        const out = egress.some((r) => (r.to ?? []).some((p) => p.podSelector && selects(p.podSelector, ownerLabels)) && (r.ports ?? []).some((p) => Number(p.port) === port));
        const ingress = ((policyOf(owner)?.spec as { ingress?: Rule[] }).ingress ?? []) as Rule[];
        const into = ingress.some((r) => (r.from ?? []).some((p) => p.podSelector && selects(p.podSelector, registryLabels)) && (r.ports ?? []).some((p) => Number(p.port) === port));
        expect({ owner, egressFromPolicyRegistry: out, ingressFromPolicyRegistry: into }).toEqual({ owner, egressFromPolicyRegistry: true, ingressFromPolicyRegistry: true });
      }
      // No other domain service lets policy-registry in.
      const others = SERVICES.filter((s) => s !== GATEWAY && !OWNERS.includes(s));
      for (const service of others) {
        const ingress = ((policyOf(service)?.spec as { ingress?: Rule[] }).ingress ?? []) as Rule[];
        expect({ service, fromPolicyRegistry: ingress.some((r) => (r.from ?? []).some((p) => p.podSelector && selects(p.podSelector, registryLabels))) }).toEqual({
          service,
          fromPolicyRegistry: false,
        });
      }
    });

    it('gives the five owners, and no other service, RETENTION_SWEEP_INTERVAL_MS and RETENTION_SWEEP_BATCH from retention, as digits', async () => {
      const defaults = await base();
      const set = await renderOnce('base+retention', [BASE], ['retention.sweepIntervalMs=86400000', 'retention.sweepBatch=250']);
      for (const service of SERVICES) {
        const [before, after] = [environmentOf(defaults, service), environmentOf(set, service)];
        if (OWNERS.includes(service)) {
          // The services' defaults (values.yaml), never as 3.6e+06.
          expect({ service, env: retentionVariables(before) }).toEqual({ service, env: { RETENTION_SWEEP_INTERVAL_MS: '3600000', RETENTION_SWEEP_BATCH: '100' } });
          expect({ service, env: retentionVariables(after) }).toEqual({ service, env: { RETENTION_SWEEP_INTERVAL_MS: '86400000', RETENTION_SWEEP_BATCH: '250' } });
          const parsed = (await appConfigSchema(service)).safeParse(asLoadConfigSees(after));
          expect(issuesOf(parsed)).toEqual([]);
          expect((parsed.data as Record<string, unknown>).RETENTION_SWEEP_INTERVAL_MS).toBe(86_400_000);
        } else {
          expect({ service, before: retentionVariables(before), after: retentionVariables(after) }).toEqual({ service, before: {}, after: {} });
        }
      }
      // Only the owners' ConfigMaps (and so their pods) change.
      expect(SERVICES.filter((s) => checksumsByService(defaults)[s] !== checksumsByService(set)[s])).toEqual(OWNERS);
    });

    it("leaves a retention setting out when its value is empty (the service's default), and services.<service>.env wins", async () => {
      const objects = await renderOnce('base+retention-empty', [BASE], ['retention.sweepBatch=', 'services.notifier.env.RETENTION_SWEEP_INTERVAL_MS=0']);
      for (const owner of OWNERS) {
        expect({ owner, env: retentionVariables(environmentOf(objects, owner)) }).toEqual({ owner, env: { RETENTION_SWEEP_INTERVAL_MS: owner === 'notifier' ? '0' : '3600000' } });
      }
    });
  });

  it('renders in the PrometheusRule the suggested alerts of docs/operations.md, and only them (DsarRetentionSweepFailing among them)', async () => {
    type Rule = { alert?: string; expr?: string; for?: string; labels?: Record<string, string> };
    const objects = await renderOnce('base+prometheusRule', [BASE], ['metrics.prometheusRule.enabled=true']);
    const rules = ofKind(objects, 'PrometheusRule').flatMap((r) => ((r.spec as { groups?: { rules?: Rule[] }[] }).groups ?? []).flatMap((g) => g.rules ?? []));
    const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const block = /Suggested alerts:\s*```yaml\n([\s\S]*?)```/.exec(operations)?.[1];
    if (!block) throw new Error('docs/operations.md has no "Suggested alerts:" yaml block');
    const shape = (r: Rule) => ({ alert: r.alert, expr: String(r.expr ?? '').trim(), for: r.for ?? null });
    expect(rules.map(shape)).toEqual((parse(block) as Rule[]).map(shape));
    expect(rules.map((r) => r.alert)).toContain('DsarRetentionSweepFailing');
  });

  it('splits the hooks into a migrations Job and a topics Job', async () => {
    const jobs = ofKind(await base(), 'Job').map((j) => ({ job: j.metadata.name, command: podTemplateOf(j).spec.containers.map(commandText).join(' ') }));
    const migrations = jobs.filter((j) => /migrat/.test(j.command));
    const topics = jobs.filter((j) => /topics/.test(j.command));
    expect(migrations).toHaveLength(1);
    expect(topics).toHaveLength(1);
    expect(migrations[0].job).not.toBe(topics[0].job);
  });

  it('routes an enabled Ingress to the api-gateway only', async () => {
    const objects = await renderOnce('base+ingress', [BASE], ['ingress.enabled=true']);
    const ingresses = ofKind(objects, 'Ingress');
    expect(ingresses.length).toBeGreaterThan(0);
    const gatewayService = ofKind(objects, 'Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === GATEWAY)?.metadata.name;
    expect([...new Set(ingresses.flatMap(routeBackends))]).toEqual([gatewayService]);
  });

  it('routes an enabled HTTPRoute (Gateway API) to the api-gateway only', async () => {
    const objects = await renderOnce('base+httproute', [BASE], ['httpRoute.enabled=true', 'httpRoute.parentRefs[0].name=gateway']);
    const routes = ofKind(objects, 'HTTPRoute');
    expect(routes.length).toBeGreaterThan(0);
    const gatewayService = ofKind(objects, 'Service').find((s) => s.metadata.labels?.['app.kubernetes.io/component'] === GATEWAY)?.metadata.name;
    expect([...new Set(routes.flatMap(routeBackends))]).toEqual([gatewayService]);
  });
});

// ---- values: the README table and the schema --------------------------------------------------------------------------

describe('values', () => {
  const values: unknown = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8'));
  const leaves = valueLeaves(values);

  it('are all documented in the `## Values` table of charts/dsar/README.md, with their defaults, and no other keys', () => {
    const rows = valuesTable(readFileSync(path.join(CHART, 'README.md'), 'utf8'));
    const documented = new Map(rows.map((r) => [r.key, r]));
    expect([...leaves.keys()].filter((k) => !documented.has(k))).toEqual([]); // undocumented keys
    expect(rows.map((r) => r.key).filter((k) => !leaves.has(k))).toEqual([]); // documented keys values.yaml lacks
    expect(rows.map((r) => r.key).filter((k, i, all) => all.indexOf(k) !== i)).toEqual([]); // each key once
    const wrongDefaults = rows
      .filter((r) => leaves.has(r.key) && normalizedCell(r.defaultCell) !== normalizedValue(leaves.get(r.key)))
      .map((r) => `line ${r.line}: ${r.key}: table ${r.defaultCell}, values.yaml ${normalizedValue(leaves.get(r.key))}`);
    expect(wrongDefaults).toEqual([]);
  });

  it('has a values.schema.json that rejects an unknown top-level key', async () => {
    expect(() => JSON.parse(readFileSync(path.join(CHART, 'values.schema.json'), 'utf8'))).not.toThrow();
    const result = await run(tools.helm, templateArgs({ valuesFiles: BASE ? [BASE] : [], set: ['unknownKey=1'] }));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknownKey|additional propert/i);
  });
});
