import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm run audit`: the production dependencies against the npm registry's advisory database (`npm audit --omit=dev`),
 * passing when every high or critical advisory it reports is explained in docs/security.md ("Explained advisories":
 * why it does not apply here, and until when that holds). Moderate and low advisories are printed, not failed on.
 *
 * Exit codes: 0 nothing unexplained; 1 a high or critical advisory without a current explanation; 2 the advisory
 * database could not be asked (its endpoint takes a POST that some networks refuse), which proves nothing either way.
 *
 * Not a step of `npm test`: its answer changes whenever an advisory is published, so a test would fail on a day
 * without any change here. What `npm test` checks is that the explanations are well formed (audit.spec.ts).
 */

const REPO_ROOT = resolve(__dirname, '../..');
export const SECURITY_DOC = join(REPO_ROOT, 'docs/security.md');
const SECTION = '### Explained advisories';
export const EXPLAINED_COLUMNS = ['Advisory', 'Package', 'Severity', 'Why it does not apply', 'Review by'];
const GHSA = /GHSA-[2-9cfghjmpqrvwx]{4}-[2-9cfghjmpqrvwx]{4}-[2-9cfghjmpqrvwx]{4}/;
const FAILING_SEVERITIES = new Set(['high', 'critical']);

export interface ExplainedAdvisory {
  id: string;
  package: string;
  severity: 'high' | 'critical';
  reason: string;
  /** The day (YYYY-MM-DD) until which the explanation holds; after it the advisory fails the audit again. */
  reviewBy: string;
}

export interface AuditFinding {
  /** The GitHub advisory id, or `npm:<source>` for an advisory without one. */
  id: string;
  package: string;
  severity: string;
  title: string;
  /** The affected versions. */
  range: string;
}

export class AuditUnavailableError extends Error {}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

function isRealDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

/** The table of explained advisories in docs/security.md; throws, naming the line, on anything malformed. */
export function explainedAdvisories(markdown: string): ExplainedAdvisory[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === SECTION);
  if (start < 0) throw new Error(`docs/security.md has no "${SECTION}" section`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const tableAt = section.findIndex((l) => l.trimStart().startsWith('|'));
  if (tableAt < 0) throw new Error(`"${SECTION}" has no table`);
  const table: string[] = [];
  for (const l of section.slice(tableAt)) {
    if (!l.trimStart().startsWith('|')) break;
    table.push(l);
  }
  const [header, rule, ...rows] = table;
  if (JSON.stringify(cellsOf(header)) !== JSON.stringify(EXPLAINED_COLUMNS)) {
    throw new Error(`"${SECTION}": the table's columns must be ${EXPLAINED_COLUMNS.join(' | ')}`);
  }
  if (!rule || !cellsOf(rule).every((c) => /^:?-{3,}:?$/.test(c))) throw new Error(`"${SECTION}": the header rule is missing`);
  return rows.map((row, i) => {
    const where = `"${SECTION}", row ${i + 1}`;
    const cells = cellsOf(row);
    if (cells.length !== EXPLAINED_COLUMNS.length) throw new Error(`${where}: ${cells.length} cells instead of ${EXPLAINED_COLUMNS.length} (no "|" inside a cell)`);
    const [advisory, pkg, severity, reason, reviewBy] = cells;
    const id = GHSA.exec(advisory)?.[0];
    if (!id) throw new Error(`${where}: the advisory must be a GitHub advisory id (GHSA-xxxx-xxxx-xxxx)`);
    const name = /^`?([^`\s]+)`?$/.exec(pkg)?.[1];
    if (!name) throw new Error(`${where}: the package must be one npm package name`);
    if (severity !== 'high' && severity !== 'critical') throw new Error(`${where}: the severity must be high or critical`);
    if (reason.length < 20) throw new Error(`${where}: say why the advisory does not apply`);
    if (!isRealDay(reviewBy)) throw new Error(`${where}: "Review by" must be a day, YYYY-MM-DD`);
    return { id, package: name, severity, reason, reviewBy };
  });
}

interface AuditAdvisory {
  source?: number;
  name?: string;
  title?: string;
  url?: string;
  severity?: string;
  range?: string;
}

/** The advisories of an `npm audit --json` report (version 2); throws AuditUnavailableError for npm's error answer. */
export function auditFindings(report: unknown): AuditFinding[] {
  const vulnerabilities = (report as { vulnerabilities?: Record<string, { via?: unknown[] }> } | null)?.vulnerabilities;
  if (vulnerabilities === undefined || vulnerabilities === null || typeof vulnerabilities !== 'object') {
    const message = (report as { message?: unknown } | null)?.message;
    throw new AuditUnavailableError(typeof message === 'string' && message !== '' ? message : 'npm audit gave no report');
  }
  const found = new Map<string, AuditFinding>();
  for (const entry of Object.values(vulnerabilities)) {
    // A string in `via` names another vulnerable package that this one depends on: its advisory is listed there.
    for (const via of entry.via ?? []) {
      if (typeof via !== 'object' || via === null) continue;
      const a = via as AuditAdvisory;
      const id = GHSA.exec(a.url ?? '')?.[0] ?? `npm:${a.source ?? 'unknown'}`;
      const finding = { id, package: a.name ?? '?', severity: a.severity ?? 'unknown', title: a.title ?? '', range: a.range ?? '' };
      found.set(`${finding.id} ${finding.package}`, finding);
    }
  }
  return [...found.values()];
}

export interface AuditVerdict {
  /** High or critical advisories without an explanation that still holds on the day. */
  unexplained: { finding: AuditFinding; why: string }[];
  /** Explained and still within their review day. */
  explained: AuditFinding[];
  /** Explanations of advisories the audit no longer reports: to be removed. */
  stale: ExplainedAdvisory[];
  /** Moderate, low and informational advisories: shown, never failed on. */
  lesser: AuditFinding[];
}

export function judge(findings: AuditFinding[], explanations: ExplainedAdvisory[], today: string): AuditVerdict {
  const verdict: AuditVerdict = { unexplained: [], explained: [], stale: [], lesser: [] };
  for (const finding of findings) {
    if (!FAILING_SEVERITIES.has(finding.severity)) {
      verdict.lesser.push(finding);
      continue;
    }
    const explanation = explanations.find((e) => e.id === finding.id && e.package === finding.package);
    if (!explanation) verdict.unexplained.push({ finding, why: 'not explained in docs/security.md' });
    else if (explanation.reviewBy < today) verdict.unexplained.push({ finding, why: `its explanation was to be reviewed by ${explanation.reviewBy}` });
    else verdict.explained.push(finding);
  }
  verdict.stale = explanations.filter((e) => !findings.some((f) => f.id === e.id && f.package === e.package));
  return verdict;
}

/** Runs `npm audit --omit=dev --json` and returns its report; npm exits non-zero whenever it reports anything. */
function runNpmAudit(): Promise<unknown> {
  return new Promise((resolveReport, reject) => {
    execFile('npm', ['audit', '--omit=dev', '--json'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 }, (error, stdout) => {
      try {
        resolveReport(JSON.parse(stdout));
      } catch {
        reject(new AuditUnavailableError(error ? `npm audit failed: ${error.message}` : 'npm audit printed no JSON'));
      }
    });
  });
}

const line = (f: AuditFinding) => `${f.severity} ${f.id} ${f.package} ${f.range}: ${f.title}`;

async function main(): Promise<number> {
  const explanations = explainedAdvisories(readFileSync(SECURITY_DOC, 'utf8'));
  let findings: AuditFinding[];
  try {
    findings = auditFindings(await runNpmAudit());
  } catch (e) {
    if (!(e instanceof AuditUnavailableError)) throw e;
    process.stderr.write(`audit: the advisory database could not be asked, nothing was checked: ${e.message}\n`);
    return 2;
  }
  const verdict = judge(findings, explanations, new Date().toISOString().slice(0, 10));
  for (const f of verdict.lesser) process.stdout.write(`below the bar   ${line(f)}\n`);
  for (const f of verdict.explained) process.stdout.write(`explained       ${line(f)}\n`);
  for (const e of verdict.stale) process.stdout.write(`no longer reported, remove its explanation: ${e.id} ${e.package}\n`);
  for (const { finding, why } of verdict.unexplained) process.stdout.write(`UNEXPLAINED     ${line(finding)} (${why})\n`);
  process.stdout.write(
    `audit: ${verdict.unexplained.length} unexplained high or critical, ${verdict.explained.length} explained, ` + `${verdict.lesser.length} below the bar, in the production dependencies\n`,
  );
  return verdict.unexplained.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === __filename) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`audit failed: ${(e as Error).message}\n`);
      process.exit(2);
    },
  );
}
