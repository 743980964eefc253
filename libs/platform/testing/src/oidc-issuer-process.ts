/**
 * The test issuer's process (started by startTestIssuer in oidc-issuer.ts; oidc-provider is an ES module and keeps
 * state of its own, so it runs apart from the tests). Listens on 127.0.0.1 at the given port, serves its own sign-in
 * and consent steps in front of oidc-provider, prints the ready line and exits when its parent goes away (the end of
 * its standard input) or on SIGTERM.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';
import { ISSUER_OPTIONS_ENV, ISSUER_PORT_ENV, ISSUER_READY_LINE, type TestIssuerSettings, testIssuerOptionsSchema } from './oidc-issuer-options';
import { loginPage, SIGN_OUT_SCRIPT, SIGN_OUT_SCRIPT_PATH } from './oidc-issuer-pages';
import { testIssuerProvider } from './oidc-issuer-provider';

/** A sign-in form is a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;
/** `/interaction/<uid>` and `/interaction/<uid>/login`; uids are oidc-provider's nanoids. */
const INTERACTION_PATH = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/;

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        reject(new Error('form too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

/** Consent is given at once, for everything the client asked for: a test issuer has no consent screen. */
async function grantConsent(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (!session) throw new Error('consent asked before sign-in');
  const grant = (grantId ? await provider.Grant.find(grantId) : undefined) ?? new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
  const savedId = await grant.save();
  await provider.interactionFinished(req, res, { consent: grantId ? {} : { grantId: savedId } }, { mergeWithLastSubmission: true });
}

async function showInteraction(provider: Provider, uid: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { prompt, params } = await provider.interactionDetails(req, res);
  if (prompt.name === 'consent') return grantConsent(provider, req, res);
  if (prompt.name !== 'login') throw new Error(`the test issuer has no step for the prompt ${prompt.name}`);
  sendHtml(res, loginPage({ action: `/interaction/${uid}/login`, login: params.login_hint }));
}

async function signIn(provider: Provider, settings: TestIssuerSettings, uid: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { prompt } = await provider.interactionDetails(req, res);
  if (prompt.name !== 'login') throw new Error(`expected the sign-in step, not ${prompt.name}`);
  const form = await readForm(req);
  const login = (form.get('login') ?? '').trim();
  // Any password will do; the login must be one of the accounts.
  if (!Object.hasOwn(settings.accounts, login) || !form.get('password')) {
    sendHtml(res, loginPage({ action: `/interaction/${uid}/login`, login, unknownLogin: true }));
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
}

function serve(provider: Provider, settings: TestIssuerSettings) {
  const oidc = provider.callback();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', provider.issuer).pathname;
    const interaction = INTERACTION_PATH.exec(path);
    try {
      if (interaction && req.method === 'GET' && !interaction[2]) return await showInteraction(provider, interaction[1], req, res);
      if (interaction && req.method === 'POST' && interaction[2]) return await signIn(provider, settings, interaction[1], req, res);
      if (path === SIGN_OUT_SCRIPT_PATH && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
        res.end(SIGN_OUT_SCRIPT);
        return;
      }
      return await oidc(req, res);
    } catch (error) {
      process.stderr.write(`test-issuer: ${req.method} ${path} failed: ${(error as Error).stack ?? String(error)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`test issuer: ${(error as Error).message}\n`);
    }
  };
}

function main(): void {
  const settings = testIssuerOptionsSchema.parse(JSON.parse(process.env[ISSUER_OPTIONS_ENV] ?? 'null'));
  const port = Number(process.env[ISSUER_PORT_ENV]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${ISSUER_PORT_ENV} must be a port number`);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = testIssuerProvider(issuer, settings);
  provider.on('server_error', (_ctx, error) => process.stderr.write(`test-issuer: ${error.stack ?? error.message}\n`));

  const server = createServer(serve(provider, settings));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
  server.listen(port, '127.0.0.1', () => process.stdout.write(`${ISSUER_READY_LINE}${issuer}\n`));
}

main();
