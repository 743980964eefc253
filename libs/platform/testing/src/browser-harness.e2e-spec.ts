import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Browser, Frame } from 'playwright-core';
import { Authenticator } from '@dsar/platform/auth';
import { checkAccessibility, launchBrowser, newPage, saveScreenshot } from './browser';
import { signInAtIssuer, startTestIssuer, type TestIssuer } from './oidc-issuer';
import { freePort } from './ports';
import { waitFor } from './wait-for';

/**
 * The browser harness on its own (no console): Debian's Chromium through playwright-core, axe-core injected into a
 * page with a strict content security policy, screenshots, third-party requests seen, and the test OpenID Connect
 * issuer taking a browser through authorization code + PKCE to an access token the gateway's own verification
 * accepts.
 */

const AUDIENCE = 'dsar-api';
const CLIENT_ID = 'harness-app';
const ACCESS_TOKEN_TTL_SECONDS = 300;
const ACCOUNTS = {
  linnea: { tenantId: 'tenant-harness', workspaceId: 'ws-north', roles: ['operator', 'auditor'], name: 'Linnea' },
  tomas: { tenantId: 'tenant-harness', roles: ['auditor'], name: 'Tomas' },
};
const THIRD_PARTY_IMAGE = 'http://tracker.example.invalid/pixel.png';
const STRICT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'";

jest.setTimeout(120_000);

/** The tiny site of the test: pages under a strict policy, the OAuth callback, and a frame for a silent sign-in. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/site.css"></head><body><main><h1>${title}</h1>${body}</main><script src="/site.js"></script></body></html>`;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function startSite(issuerOrigin: () => string): Promise<{ server: Server; base: string }> {
  const dot = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle cx="4" cy="4" r="4" fill="#224"/></svg>';
  return new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const html = (body: string, csp = STRICT_CSP) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp });
        res.end(body);
      };
      switch (url.pathname) {
        case '/site.js':
          res.writeHead(200, { 'Content-Type': 'text/javascript' });
          return res.end("document.body.dataset.scripted = 'yes';\n");
        case '/site.css':
          res.writeHead(200, { 'Content-Type': 'text/css' });
          return res.end('body { font-family: sans-serif; color: #111; background: #fff; }\n');
        case '/dot.svg':
          res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
          return res.end(dot);
        case '/clean':
          return html(page('A clean page', '<p>Every image has a text alternative.</p><img src="/dot.svg" alt="A dark dot">'));
        case '/faulty':
          return html(page('A faulty page', '<p>The image below has no text alternative, on purpose.</p><img src="/dot.svg">'));
        case '/third-party':
          // No policy here: the page must be free to ask another host, for the harness to see it.
          return html(page('A page that calls out', `<img src="${THIRD_PARTY_IMAGE}" alt="A pixel from elsewhere">`), "default-src 'self'; img-src *");
        case '/callback':
          return html(page('Signed in', '<p>Back from the issuer.</p>'));
        case '/frame':
          return html(
            page('Silent sign-in', `<iframe title="Silent sign-in" src="${escapeAttribute(url.searchParams.get('src') ?? '')}"></iframe>`),
            `${STRICT_CSP}; frame-src 'self' ${issuerOrigin()}`,
          );
        default:
          res.writeHead(404).end();
      }
    });
    server.once('error', reject);
    void freePort().then((port) => server.listen(port, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${port}` })));
  });
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

interface Authorization {
  url: string;
  state: string;
  verifier: string;
}

/** An authorization request with PKCE (S256), as a browser app makes it. */
function authorization(issuer: TestIssuer, redirectUri: string, params: Record<string, string> = {}): Authorization {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile',
    state,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...params,
  });
  return { url: `${issuer.url}/auth?${query}`, state, verifier };
}

/** The code of a redirect back to the client, after checking its state and issuer. */
function codeOf(callbackUrl: string, request: Authorization, issuer: TestIssuer): string {
  const params = new URL(callbackUrl).searchParams;
  expect({ error: params.get('error'), state: params.get('state'), iss: params.get('iss') }).toEqual({ error: null, state: request.state, iss: issuer.url });
  return params.get('code') as string;
}

interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  id_token?: string;
  refresh_token?: string;
}

/** The token request a browser app at `origin` makes (a CORS request: the answer must let the app read it). */
async function tokenRequest(issuer: TestIssuer, origin: string, form: Record<string, string>): Promise<TokenResponse> {
  const res = await fetch(`${issuer.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }),
  });
  const body = (await res.json()) as TokenResponse;
  expect({ status: res.status, body, allowedOrigin: res.headers.get('access-control-allow-origin') }).toMatchObject({ status: 200, body: { token_type: 'Bearer' }, allowedOrigin: origin });
  return body;
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

describe('the browser harness: Chromium, axe-core, screenshots and a real OpenID Connect issuer', () => {
  let issuer: TestIssuer;
  let browser: Browser;
  let site: { server: Server; base: string };
  let authenticator: Authenticator;
  const callback = () => `${site.base}/callback`;

  beforeAll(async () => {
    site = await startSite(() => issuer.url);
    issuer = await startTestIssuer({
      clients: [{ clientId: CLIENT_ID, redirectUris: [callback()], postLogoutRedirectUris: [`${site.base}/clean`] }],
      audience: AUDIENCE,
      accounts: ACCOUNTS,
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    });
    browser = await launchBrowser();
    // The gateway's own verification: the issuer's JWKS, its identifier and the API's audience.
    authenticator = new Authenticator({ apiKeys: [], jwksUrl: issuer.jwksUrl, issuer: issuer.url, audience: AUDIENCE });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await issuer?.close();
    await new Promise((resolve) => site?.server.close(resolve));
  }, 120_000);

  it('signs a person in with authorization code + PKCE, to an access token the gateway accepts with their tenant, workspace and roles', async () => {
    const { page, thirdPartyRequests, errors } = await newPage(browser);
    const request = authorization(issuer, callback());
    await page.goto(request.url);
    await signInAtIssuer(page, 'linnea');
    await page.waitForURL((url) => url.href.startsWith(`${callback()}?`), { timeout: 30_000 });
    const tokens = await tokenRequest(issuer, site.base, { grant_type: 'authorization_code', code: codeOf(page.url(), request, issuer), redirect_uri: callback(), code_verifier: request.verifier });

    expect(await authenticator.authenticate(`Bearer ${tokens.access_token}`)).toEqual({ id: 'jwt:linnea', tenantId: 'tenant-harness', workspaceId: 'ws-north', roles: ['operator', 'auditor'] });
    const claims = claimsOf(tokens.access_token);
    expect(claims).toMatchObject({ iss: issuer.url, aud: AUDIENCE, sub: 'linnea', client_id: CLIENT_ID });
    expect((claims.exp as number) - (claims.iat as number)).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(claimsOf(tokens.id_token as string)).toMatchObject({ iss: issuer.url, aud: CLIENT_ID, sub: 'linnea' });
    // No offline_access asked for: no refresh token.
    expect(tokens.refresh_token).toBeUndefined();
    expect(thirdPartyRequests()).toEqual([]);
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('signs in again without a prompt inside a frame while the session at the issuer lasts (silent renew)', async () => {
    const { page, errors } = await newPage(browser);
    const first = authorization(issuer, callback());
    await page.goto(first.url);
    await signInAtIssuer(page, 'tomas');
    await page.waitForURL((url) => url.href.startsWith(`${callback()}?`), { timeout: 30_000 });

    const silent = authorization(issuer, callback(), { prompt: 'none' });
    await page.goto(`${site.base}/frame?${new URLSearchParams({ src: silent.url })}`);
    const frame = await waitFor('the frame back at the callback', () => page.frames().find((f: Frame) => f !== page.mainFrame() && f.url().startsWith(`${callback()}?`)));
    const tokens = await tokenRequest(issuer, site.base, { grant_type: 'authorization_code', code: codeOf(frame.url(), silent, issuer), redirect_uri: callback(), code_verifier: silent.verifier });
    expect(await authenticator.authenticate(`Bearer ${tokens.access_token}`)).toEqual({ id: 'jwt:tomas', tenantId: 'tenant-harness', roles: ['auditor'] });
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('issues a refresh token only for offline_access, and the refreshed access token carries the same claims', async () => {
    const { page } = await newPage(browser);
    // The API named by its resource indicator, as a client that sends `resource` does.
    const request = authorization(issuer, callback(), { scope: 'openid offline_access', prompt: 'consent', resource: issuer.resourceIndicator });
    await page.goto(request.url);
    await signInAtIssuer(page, 'linnea');
    await page.waitForURL((url) => url.href.startsWith(`${callback()}?`), { timeout: 30_000 });
    const tokens = await tokenRequest(issuer, site.base, {
      grant_type: 'authorization_code',
      code: codeOf(page.url(), request, issuer),
      redirect_uri: callback(),
      code_verifier: request.verifier,
      resource: issuer.resourceIndicator,
    });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const refreshed = await tokenRequest(issuer, site.base, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(await authenticator.authenticate(`Bearer ${refreshed.access_token}`)).toEqual({ id: 'jwt:linnea', tenantId: 'tenant-harness', workspaceId: 'ws-north', roles: ['operator', 'auditor'] });
    await page.context().close();
  });

  it('signs out at the issuer without a question, back to the client, and then a silent sign-in needs a login', async () => {
    const { page, errors } = await newPage(browser);
    const request = authorization(issuer, callback());
    await page.goto(request.url);
    await signInAtIssuer(page, 'tomas');
    await page.waitForURL((url) => url.href.startsWith(`${callback()}?`), { timeout: 30_000 });
    const tokens = await tokenRequest(issuer, site.base, { grant_type: 'authorization_code', code: codeOf(page.url(), request, issuer), redirect_uri: callback(), code_verifier: request.verifier });

    const signedOut = `${site.base}/clean`;
    const endSession = new URLSearchParams({ id_token_hint: tokens.id_token as string, post_logout_redirect_uri: signedOut, state: 'bye' });
    await page.goto(`${issuer.url}/session/end?${endSession}`);
    await page.waitForURL((url) => url.href.startsWith(`${signedOut}?`), { timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('state')).toBe('bye');

    await page.goto(authorization(issuer, callback(), { prompt: 'none' }).url);
    await page.waitForURL((url) => url.href.startsWith(`${callback()}?`), { timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');
    expect(errors()).toEqual([]);
    await page.context().close();
  });

  it('refuses an authorization request without PKCE, and a resource that is not an absolute URI', async () => {
    const noPkce = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: callback(), response_type: 'code', scope: 'openid', state: 's' });
    const res = await fetch(`${issuer.url}/auth?${noPkce}`, { redirect: 'manual' });
    expect(new URL(res.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');

    // oidc-provider takes RFC 8707's word for it: `dsar-api` is not a resource indicator (issuer.resourceIndicator is).
    const bareAudience = authorization(issuer, callback(), { resource: AUDIENCE });
    const refused = await fetch(bareAudience.url, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location') as string).searchParams.get('error')).toBe('invalid_target');
  });

  it("shows the issuer's refusal of a login it does not know", async () => {
    const { page } = await newPage(browser);
    await page.goto(authorization(issuer, callback()).url);
    await expect(signInAtIssuer(page, 'nobody')).rejects.toThrow('refused the login "nobody"');
    await page.context().close();
  });

  it('finds an accessibility violation put there on purpose, and none on a clean page, under a strict policy', async () => {
    const { page, errors, thirdPartyRequests } = await newPage(browser);
    await page.goto(`${site.base}/faulty`);
    const violations = await checkAccessibility(page);
    expect(violations).toEqual([expect.objectContaining({ id: 'image-alt', impact: 'critical', targets: ['img'] })]);

    await page.goto(`${site.base}/clean`);
    // The page's own script ran under the policy: the policy was in force, and axe got in all the same.
    expect(await page.locator('body').getAttribute('data-scripted')).toBe('yes');
    expect(await checkAccessibility(page)).toEqual([]);
    expect(errors()).toEqual([]);
    expect(thirdPartyRequests()).toEqual([]);
    await page.context().close();
  });

  it('writes a full-page screenshot as a PNG, at a phone size', async () => {
    const { page } = await newPage(browser, { viewport: 'phone' });
    expect(page.viewportSize()).toEqual({ width: 390, height: 844 });
    await page.goto(`${site.base}/clean`);
    const file = await saveScreenshot(page, 'browser-harness-clean');
    expect(file).toMatch(/\/\.reports\/screenshots\/browser-harness-clean\.png$/);
    expect((await readFile(file)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await expect(saveScreenshot(page, '../outside')).rejects.toThrow('A screenshot name');
    await page.context().close();
  });

  it('records a request to a host other than loopback, and the error it causes', async () => {
    const { page, thirdPartyRequests, errors } = await newPage(browser);
    await page.goto(`${site.base}/third-party`);
    await waitFor('the request to the other host', () => thirdPartyRequests().includes(THIRD_PARTY_IMAGE));
    expect(thirdPartyRequests()).toEqual([THIRD_PARTY_IMAGE]);
    await waitFor('the failed load as a console error', () => errors().length > 0);
    await page.context().close();
  });
});
