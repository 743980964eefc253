import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';

/**
 * Helpers of the chart tests (chart.e2e-spec.ts): the pinned helm and kubernetes-validate of tools/scripts/helm.sh,
 * rendering charts/dsar into objects, and small accessors on the rendered Kubernetes objects.
 */

export const ROOT = path.resolve(__dirname, '../..');
/** The chart under test; DSAR_CHART_DIR points the tests at a copy (e.g. to see them fail on a broken chart). */
export const CHART = process.env.DSAR_CHART_DIR ? path.resolve(process.env.DSAR_CHART_DIR) : path.join(ROOT, 'charts/dsar');
export const RELEASE = 'dsar';
export const NAMESPACE = 'dsar';

/**
 * The Kubernetes version the chart is rendered for (helm --kube-version) and validated against (kubernetes-validate
 * -k). helm 4.1.4 is built with client-go 1.35; kubernetes-validate 1.37.0 ships the schemas of 1.x.0 up to 1.37.0.
 */
export const KUBE_VERSION = '1.35.0';

/**
 * Kinds without a schema in kubernetes-validate (custom resources of operators the chart integrates with). They are
 * skipped by name, so that any other kind without a schema fails the validation instead of passing with a warning.
 */
export const CUSTOM_RESOURCE_KINDS = new Set([
  'ServiceMonitor', // monitoring.coreos.com (Prometheus Operator)
  'PodMonitor', // monitoring.coreos.com
  'PrometheusRule', // monitoring.coreos.com
  'HTTPRoute', // gateway.networking.k8s.io (Gateway API)
  'GRPCRoute', // gateway.networking.k8s.io
  'ExternalSecret', // external-secrets.io
  'SecretStore', // external-secrets.io
  'ClusterSecretStore', // external-secrets.io
]);

export interface Tools {
  helm: string;
  kubernetesValidate: string;
}

/** Installs (or reuses) helm and kubernetes-validate through tools/scripts/helm.sh. */
export function installTools(): Tools {
  const out = execFileSync('bash', [path.join(ROOT, 'tools/scripts/helm.sh'), 'install'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [helm, kubernetesValidate] = out.trim().split('\n').slice(-2);
  return { helm, kubernetesValidate };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; never throws on a non-zero exit. */
export function run(file: string, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The CI scenarios of the chart: charts/dsar/ci/*.yaml (helm lint and chart-testing take them from there). */
export function scenarioFiles(): string[] {
  const dir = path.join(CHART, 'ci');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => path.join(dir, n));
}

export const scenarioName = (file: string): string => path.basename(file).replace(/(-values)?\.ya?ml$/, '');

export interface Render {
  source: RunResult;
  objects: K8sObject[];
}

export interface RenderOptions {
  valuesFiles?: string[];
  set?: string[];
}

/** The `helm template` arguments for one rendering of the chart. */
export function templateArgs({ valuesFiles = [], set = [] }: RenderOptions): string[] {
  return ['template', RELEASE, CHART, '--namespace', NAMESPACE, '--kube-version', KUBE_VERSION, ...valuesFiles.flatMap((f) => ['-f', f]), ...set.flatMap((s) => ['--set', s])];
}

/** `helm template` the chart and parse the multi-document output; throws with helm's message when it fails. */
export async function render(tools: Tools, options: RenderOptions = {}): Promise<Render> {
  const source = await run(tools.helm, templateArgs(options));
  if (source.code !== 0) throw new Error(`helm ${templateArgs(options).join(' ')} exited with ${source.code}:\n${source.stderr}`);
  return { source, objects: parseManifests(source.stdout) };
}

/** Parses a multi-document YAML stream of Kubernetes objects (empty documents dropped). */
export function parseManifests(text: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`a rendered document is not an object: ${stringify(value)}`);
    objects.push(value as K8sObject);
  }
  return objects;
}

// ---- the rendered objects (only the fields the tests read) ----------------------------------------------------------

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type?: string };
}

export interface Probe {
  httpGet?: { path?: string; port?: number | string };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: { resource: string };
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: SecurityContext;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
}

export interface PodSpec {
  automountServiceAccountToken?: boolean;
  serviceAccountName?: string;
  securityContext?: SecurityContext;
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] }; configMap?: { name: string } }[];
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

export const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

/** The pod template of a Deployment, StatefulSet, DaemonSet or Job (and a CronJob's job). */
export function podTemplateOf(o: K8sObject): PodTemplate {
  if (o.kind === 'CronJob') return (o.spec?.jobTemplate as { spec: { template: PodTemplate } }).spec.template;
  const template = o.spec?.template as PodTemplate | undefined;
  if (!template) throw new Error(`${o.kind}/${o.metadata.name} has no pod template`);
  return template;
}

export const allContainers = (pod: PodSpec): Container[] => [...(pod.initContainers ?? []), ...pod.containers];

/** The service a workload belongs to: its pods' app.kubernetes.io/component label. */
export const componentOf = (o: K8sObject): string | undefined => podTemplateOf(o).metadata?.labels?.['app.kubernetes.io/component'];

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Whether a label selector selects an object with these labels (Kubernetes semantics; an empty selector selects all). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

export const isEmptySelector = (s: LabelSelector | undefined): boolean => !s || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

export const ref = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;
