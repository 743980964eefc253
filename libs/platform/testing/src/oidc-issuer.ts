import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { freePort } from './ports';
import { ISSUER_OPTIONS_ENV, ISSUER_PORT_ENV, ISSUER_READY_LINE, resourceIndicatorFor, type TestIssuerOptions, testIssuerOptionsSchema } from './oidc-issuer-options';
import { ISSUER_PAGE_NAMES } from './oidc-issuer-pages';

export type { TestIssuerAccount, TestIssuerClient, TestIssuerOptions } from './oidc-issuer-options';

const ROOT = path.resolve(__dirname, '../../../..');
const ENTRY = path.join(__dirname, 'oidc-issuer-process.ts');
/** Compiling the entry and starting oidc-provider, on a busy machine. */
const READY_WITHIN_MS = 30_000;
const STOPPED_WITHIN_MS = 10_000;
/** How much of the process's output a failure message quotes. */
const OUTPUT_KEPT = 4000;

export interface TestIssuer {
  /** The issuer identifier (`iss` of its tokens): `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly jwksUrl: string;
  /**
   * The API's resource indicator (RFC 8707), which a client may send as `resource`. It is the audience when that is an
   * absolute URI; otherwise (an audience like `dsar-api`) a URN of the issuer's, since oidc-provider accepts absolute
   * URIs only. A client that sends no `resource` gets the API's tokens all the same.
   */
  readonly resourceIndicator: string;
  /** Stops the issuer's process (its sessions and tokens are gone; tokens it signed no longer verify). */
  close(): Promise<void>;
}

/**
 * A real OpenID Connect issuer (oidc-provider) on 127.0.0.1 for tests, in a process of its own: public clients with
 * authorization code + PKCE, access tokens as RS256 JWTs for `audience` with the claims the gateway reads (`sub` the
 * login, `tenant_id`, `workspace_id`, `roles`), a sign-in form that takes any password for a login of `accounts`
 * (signInAtIssuer fills it), consent given at once, refresh tokens only for `offline_access`, and sign-out.
 */
export async function startTestIssuer(options: TestIssuerOptions): Promise<TestIssuer> {
  const settings = testIssuerOptionsSchema.parse(options);
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/scripts/run-ts.cjs'), ENTRY], {
    cwd: ROOT,
    env: { ...process.env, [ISSUER_OPTIONS_ENV]: JSON.stringify(settings), [ISSUER_PORT_ENV]: String(port) },
    // Its standard input stays open while this process lives: the issuer exits when it closes.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const url = await readyUrl(child);
  return {
    url,
    jwksUrl: `${url}/jwks`,
    resourceIndicator: resourceIndicatorFor(settings.audience),
    close: () => stop(child),
  };
}

/** The URL of the ready line; rejects with the process's output when it exits first or takes too long. */
function readyUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let stdoutLine = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The test issuer did not start: ${reason}\n${output.slice(-OUTPUT_KEPT)}`));
    };
    const timer = setTimeout(() => fail(`no ready line within ${READY_WITHIN_MS / 1000} s`), READY_WITHIN_MS);
    const onExit = (code: number | null, signal: string | null) => fail(`it exited (${signal ?? `code ${code}`})`);
    child.once('exit', onExit);
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-OUTPUT_KEPT);
      stdoutLine += text;
      const lines = stdoutLine.split('\n');
      stdoutLine = lines.pop() ?? '';
      const ready = lines.find((line) => line.startsWith(ISSUER_READY_LINE));
      if (!ready) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(ready.slice(ISSUER_READY_LINE.length).trim());
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOPPED_WITHIN_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** How long the issuer's sign-in form may take to show, and the way back to the client after it. */
const SIGN_IN_WITHIN_MS = 30_000;
const TEST_PASSWORD = 'any password will do';

/**
 * Fills and submits the test issuer's sign-in form (the page must be on its way there, e.g. after a client's "Sign
 * in") and waits until the browser has left it for the client. Fails with the form's message when the issuer does not
 * know `login`.
 */
export async function signInAtIssuer(page: Page, login: string): Promise<void> {
  const names = ISSUER_PAGE_NAMES;
  const form = page.getByRole('form', { name: names.signInForm });
  await form.waitFor({ state: 'visible', timeout: SIGN_IN_WITHIN_MS });
  await form.getByLabel(names.login, { exact: true }).fill(login);
  await form.getByLabel(names.password, { exact: true }).fill(TEST_PASSWORD);
  await form.getByRole('button', { name: names.submit, exact: true }).click();
  const left = page.waitForURL((url) => !url.pathname.startsWith('/interaction/'), { timeout: SIGN_IN_WITHIN_MS, waitUntil: 'commit' }).then(() => 'left' as const);
  const refused = form
    .getByRole('alert')
    .waitFor({ state: 'visible', timeout: SIGN_IN_WITHIN_MS })
    .then(() => 'refused' as const);
  const outcome = await Promise.any([left, refused]).catch(() => 'stuck' as const);
  if (outcome === 'refused') throw new Error(`The test issuer refused the login ${JSON.stringify(login)}: ${names.unknownLogin}`);
  if (outcome === 'stuck') throw new Error(`The browser was still at the test issuer's sign-in (${page.url()}) after ${SIGN_IN_WITHIN_MS / 1000} s.`);
}
