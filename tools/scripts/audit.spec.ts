import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AuditUnavailableError, auditFindings, EXPLAINED_COLUMNS, explainedAdvisories, judge, SECURITY_DOC } from './audit';
import { type PackageLock, productionRefs } from './sbom';

/**
 * `npm run audit` (tools/scripts/audit.ts) fails on a high or critical advisory of a production dependency unless
 * docs/security.md explains it. The registry's answer changes from day to day, so `npm test` does not ask it: it checks
 * that the explanations are well formed and name production packages, and how a report is judged.
 */
const root = path.resolve(__dirname, '../..');
const HEADER = `| ${EXPLAINED_COLUMNS.join(' | ')} |\n|---|---|---|---|---|`;
const doc = (rows: string[]) => `# Security\n\n## Dependencies\n\n### Explained advisories\n\nWhy each one is safe.\n\n${HEADER}\n${rows.join('\n')}\n\n## Threat model\n`;
const ROW = '| [GHSA-jr5f-v2jv-69x6](https://github.com/advisories/GHSA-jr5f-v2jv-69x6) | `axios` | high | Only the Slack Web API client uses it, and only with fixed URLs of ours. | 2027-03-01 |';

describe('the explained advisories of docs/security.md', () => {
  it('are a well-formed table naming production packages, each advisory once', () => {
    const explained = explainedAdvisories(readFileSync(SECURITY_DOC, 'utf8'));
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as PackageLock;
    const productionNames = new Set([...productionRefs(lock)].map((ref) => ref.slice(0, ref.lastIndexOf('@'))));
    expect(explained.filter((e) => !productionNames.has(e.package))).toEqual([]);
    expect(new Set(explained.map((e) => `${e.id} ${e.package}`)).size).toBe(explained.length);
  });

  it('reads each row: the advisory id from its link, the package, the severity, the reason and the review day', () => {
    expect(explainedAdvisories(doc([ROW]))).toEqual([
      { id: 'GHSA-jr5f-v2jv-69x6', package: 'axios', severity: 'high', reason: 'Only the Slack Web API client uses it, and only with fixed URLs of ours.', reviewBy: '2027-03-01' },
    ]);
    expect(explainedAdvisories(doc([]))).toEqual([]);
  });

  it.each([
    ['no section', '# Security\n\n## Dependencies\n', /has no "### Explained advisories" section/],
    ['no table', '### Explained advisories\n\nNone.\n\n## Next\n\n| a |\n|---|\n', /has no table/],
    ['other columns', '### Explained advisories\n\n| Advisory | Package | Why |\n|---|---|---|\n', /columns must be/],
    ['a CVE instead of an advisory id', doc([ROW.replace(/GHSA-jr5f-v2jv-69x6/g, 'CVE-2025-58754')]), /row 1: the advisory must be a GitHub advisory id/],
    ['two packages', doc([ROW.replace('`axios`', 'axios, form-data')]), /row 1: the package must be one npm package name/],
    ['a moderate advisory', doc([ROW.replace('| high |', '| moderate |')]), /row 1: the severity must be high or critical/],
    ['no reason', doc([ROW.replace(/Only the .*ours\./, 'n/a')]), /row 1: say why/],
    ['a day that does not exist', doc([ROW.replace('2027-03-01', '2027-02-30')]), /row 1: "Review by" must be a day/],
    ['a "|" inside a cell', doc([ROW.replace('fixed URLs', 'fixed | URLs')]), /row 1: 6 cells instead of 5/],
  ])('refuses %s', (_, markdown, message) => {
    expect(() => explainedAdvisories(markdown)).toThrow(message);
  });
});

/** Shaped as `npm audit --json` (report version 2) answers; the advisories and their ranges are made up. */
const REPORT = {
  auditReportVersion: 2,
  vulnerabilities: {
    axios: {
      name: 'axios',
      severity: 'high',
      via: [
        { source: 1, name: 'axios', title: 'first advisory of the fixture', url: 'https://github.com/advisories/GHSA-jr5f-v2jv-69x6', severity: 'high', range: '<1.12.0' },
        { source: 2, name: 'axios', title: 'second advisory of the fixture', url: 'https://github.com/advisories/GHSA-8hc4-vh64-cxmj', severity: 'critical', range: '<1.8.2' },
      ],
    },
    '@slack/web-api': { name: '@slack/web-api', severity: 'high', via: ['axios'] },
    'on-headers': {
      name: 'on-headers',
      severity: 'low',
      via: [{ source: 3, name: 'on-headers', title: 'a low advisory of the fixture', url: 'https://github.com/advisories/GHSA-76c9-3jph-rj3q', severity: 'low', range: '<1.1.0' }],
    },
  },
  metadata: { vulnerabilities: { low: 1, high: 2, critical: 1 } },
};

describe('judging an audit report', () => {
  const findings = auditFindings(REPORT);
  const explanation = explainedAdvisories(doc([ROW]))[0];

  it('takes the advisories themselves, not the packages that only depend on a vulnerable one', () => {
    expect(findings.map((f) => `${f.severity} ${f.id} ${f.package}`)).toEqual(['high GHSA-jr5f-v2jv-69x6 axios', 'critical GHSA-8hc4-vh64-cxmj axios', 'low GHSA-76c9-3jph-rj3q on-headers']);
  });

  it('fails on a high or critical advisory without an explanation, and shows the lesser ones', () => {
    const verdict = judge(findings, [explanation], '2026-12-01');
    expect(verdict.explained.map((f) => f.id)).toEqual(['GHSA-jr5f-v2jv-69x6']);
    expect(verdict.unexplained).toEqual([{ finding: expect.objectContaining({ id: 'GHSA-8hc4-vh64-cxmj' }), why: 'not explained in docs/security.md' }]);
    expect(verdict.lesser.map((f) => f.package)).toEqual(['on-headers']);
    expect(verdict.stale).toEqual([]);
  });

  it('fails on an explained advisory once its review day has passed, and names explanations nothing needs any more', () => {
    expect(judge(findings, [explanation], '2027-03-01').unexplained.map((u) => u.finding.id)).not.toContain('GHSA-jr5f-v2jv-69x6');
    expect(judge(findings, [explanation], '2027-03-02').unexplained).toContainEqual({
      finding: expect.objectContaining({ id: 'GHSA-jr5f-v2jv-69x6' }),
      why: 'its explanation was to be reviewed by 2027-03-01',
    });
    expect(judge([], [explanation], '2026-12-01')).toEqual({ unexplained: [], explained: [], stale: [explanation], lesser: [] });
  });

  it('says the database could not be asked, rather than passing, when npm answers with an error', () => {
    // What npm printed here, where the network refuses the POST of the bulk advisory endpoint.
    const refused = { message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', statusCode: 405, error: { summary: '', detail: '' } };
    expect(() => auditFindings(refused)).toThrow(AuditUnavailableError);
    expect(() => auditFindings(refused)).toThrow(/405 Method Not Allowed/);
    expect(() => auditFindings(null)).toThrow(AuditUnavailableError);
  });
});

describe('npm run audit', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dsar-audit-'));
    // Stands in for npm on PATH: prints the report it is given, and exits 1 as npm audit does when it found anything.
    await writeFile(path.join(dir, 'npm'), '#!/bin/sh\ncat "$FAKE_AUDIT_REPORT"\nexit 1\n');
    await chmod(path.join(dir, 'npm'), 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  let reports = 0;
  async function audit(report: unknown): Promise<{ code: number; stdout: string; stderr: string }> {
    const file = path.join(dir, `report-${++reports}.json`);
    await writeFile(file, JSON.stringify(report));
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['tools/scripts/run-ts.cjs', 'tools/scripts/audit.ts'],
        { cwd: root, timeout: 60_000, env: { PATH: `${dir}:${process.env.PATH ?? ''}`, FAKE_AUDIT_REPORT: file } },
        (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
      );
    });
  }

  it('exits 1 naming each unexplained high or critical advisory, and shows the lesser ones', async () => {
    const { code, stdout } = await audit(REPORT);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^UNEXPLAINED +high GHSA-jr5f-v2jv-69x6 axios/m);
    expect(stdout).toMatch(/^UNEXPLAINED +critical GHSA-8hc4-vh64-cxmj axios/m);
    expect(stdout).toMatch(/^below the bar +low GHSA-76c9-3jph-rj3q on-headers/m);
    expect(stdout).toContain('audit: 2 unexplained high or critical, 0 explained, 1 below the bar');
  }, 70_000);

  it('exits 0 on a report with nothing high or critical', async () => {
    const { code, stdout } = await audit({ ...REPORT, vulnerabilities: { 'on-headers': REPORT.vulnerabilities['on-headers'] } });
    expect(code).toBe(0);
    expect(stdout).toContain('audit: 0 unexplained high or critical, 0 explained, 1 below the bar');
  }, 70_000);

  it('exits 2 when the advisory database could not be asked', async () => {
    const { code, stderr } = await audit({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', error: {} });
    expect(code).toBe(2);
    expect(stderr).toContain('the advisory database could not be asked, nothing was checked: 405 Method Not Allowed');
  }, 70_000);
});
