import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Browser, Page } from 'playwright-core';

/**
 * Browser tests: Debian's Chromium (tools/scripts/chromium.sh installs it; the Jest global setup sets CHROMIUM_PATH)
 * driven by playwright-core. Never a browser that Playwright downloads.
 */

const ROOT = path.resolve(__dirname, '../../../..');
const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Starting Chromium on a busy machine. */
const LAUNCH_WITHIN_MS = 60_000;
/** Headless, no sandbox (containers), and nothing of Chromium's own that calls home. */
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Chromium, headless, with a fresh profile (Playwright makes a temporary user data directory per launch). */
export async function launchBrowser(): Promise<Browser> {
  // Loaded here rather than at the top: every test that imports the test library would load it otherwise.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM, args: CHROMIUM_FLAGS, headless: true, timeout: LAUNCH_WITHIN_MS });
}

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

export interface NewPageOptions {
  viewport?: keyof typeof VIEWPORTS;
  /** The browser's language (`navigator.languages`, Accept-Language), e.g. `de-DE`; default Chromium's own. */
  locale?: string;
}

export interface OpenedPage {
  page: Page;
  /** Every request the page (and its frames and workers) made to a host other than this machine's loopback. */
  thirdPartyRequests(): string[];
  /** Console errors and uncaught exceptions of the page, in order. */
  errors(): string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for a request that leaves the machine: a network URL whose host is not loopback. */
function isThirdPartyUrl(url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed || !['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  return !LOOPBACK_HOSTS.has(parsed.hostname);
}

/**
 * Chromium asks every site for `/favicon.ico` on its own and reports a missing one as a console error. The page never
 * asked for it, so it is no error of the page's; an icon the page names at another path still counts.
 */
function isAutomaticFaviconMiss(url: string): boolean {
  return URL.parse(url)?.pathname === '/favicon.ico';
}

/** A page in a fresh browser context (no cookies or storage of another test), desktop-sized unless told otherwise. */
export async function newPage(browser: Browser, options: NewPageOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: VIEWPORTS[options.viewport ?? 'desktop'], ...(options.locale ? { locale: options.locale } : {}) });
  const thirdParty: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => {
    if (isThirdPartyUrl(request.url())) thirdParty.push(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && !isAutomaticFaviconMiss(message.location().url)) errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return { page, thirdPartyRequests: () => [...thirdParty], errors: () => [...errors] };
}

export interface AxeViolation {
  /** The axe rule, e.g. `image-alt`. */
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the first offending elements. */
  targets: string[];
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Enough elements to find the fault; the rule says what it is. */
const TARGETS_SHOWN = 5;
let axeSource: string | undefined;

/**
 * The WCAG 2.1 A and AA violations axe-core finds in the page's main frame (frames of other origins, such as a hidden
 * silent-renew frame at the issuer, are not the page's own). Injected through the DevTools protocol, which a
 * `script-src 'self'` policy does not restrict, where a `<script>` tag would be refused.
 */
export async function checkAccessibility(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // The expressions run in the page (this library is compiled without the DOM's types).
  const injected = await page.evaluate<boolean>("typeof window.axe === 'object'");
  if (!injected) await page.evaluate(axeSource);
  const options: RunOptions = { runOnly: { type: 'tag', values: AXE_TAGS }, iframes: false, resultTypes: ['violations'] };
  return page.evaluate(
    async ({ options, shown }) => {
      const { axe, document } = globalThis as unknown as { axe: { run(context: unknown, options: RunOptions): Promise<AxeResults> }; document: unknown };
      const results = await axe.run(document, options);
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        targets: v.nodes.slice(0, shown).map((node) => node.target.map(String).join(' ')),
      }));
    },
    { options, shown: TARGETS_SHOWN },
  );
}

/** Screenshots the whole page to `<repo>/.reports/screenshots/<name>.png` (kept by the run) and returns the path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new Error(`A screenshot name is letters, digits, '.', '_' and '-': ${JSON.stringify(name)}`);
  const dir = path.join(ROOT, '.reports', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
