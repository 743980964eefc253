import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ProblemError } from '@dsar/platform/errors';
import type { ConsoleSettings } from './console-settings';
import { CONSOLE_SETTINGS } from './gateway-tokens';

/** Media types of the files a console build holds; a file of another kind is not served. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite names the bundle's files after their content (`index-3f2a1b9c.js`): they never change under one name. */
const HASHED_ASSET = /^assets\//;
const INDEX = 'index.html';

/** The console's files by their path under /console/, read once at start: a name not listed is never opened. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && Object.hasOwn(MEDIA_TYPES, extname(entry.name))) files.set(relative(dir, path).split(sep).join('/'), path);
    }
  };
  walk(dir);
  return files;
}

/** A path as the file names are listed; undefined (no such file) when its escapes are not valid UTF-8. */
function decoded(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * The Content-Security-Policy of every console file: its own scripts and styles only, no inline code, and the
 * issuer as the one other origin (discovery and the token endpoint by fetch, the silent renew in a frame, the
 * sign-in and sign-out by navigation).
 */
export function consoleContentSecurityPolicy(settings: ConsoleSettings): string {
  const issuer = settings.oidc ? ` ${new URL(settings.oidc.issuer).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${issuer}`,
    `frame-src 'self'${issuer}`,
    "frame-ancestors 'self'",
    `form-action 'self'${issuer}`,
    "base-uri 'none'",
  ].join('; ');
}

/** What the console reads at start (`/console/config.json`): how operators sign in, and where the API is. */
export function consoleConfigOf(settings: ConsoleSettings) {
  return {
    apiBase: '/api/v1',
    oidc: settings.oidc ? { authority: settings.oidc.issuer, clientId: settings.oidc.clientId, scope: settings.oidc.scope, resource: settings.oidc.resource ?? null } : null,
    keySignIn: settings.keySignIn,
  };
}

/**
 * The operator console (docs/console.md): the files of its build under /console/, and index.html for every other
 * path under it (the console's own routes), with a strict CSP. It holds no state and calls only /api/v1.
 */
@Controller('console')
export class ConsoleController {
  private readonly logger = new Logger('Console');
  private readonly files: Map<string, string>;
  private readonly policy: string;
  private readonly config: string;

  constructor(@Inject(CONSOLE_SETTINGS) private readonly settings: ConsoleSettings) {
    this.files = filesOf(settings.dir);
    if (!this.files.has(INDEX)) this.logger.warn(`the console is not built (no ${join(settings.dir, INDEX)}): /console/ answers 404; run npm run console:build`);
    this.policy = consoleContentSecurityPolicy(settings);
    this.config = JSON.stringify(consoleConfigOf(settings));
  }

  @Get('config.json')
  configuration(@Res() res: Response): void {
    this.secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json; charset=utf-8').send(this.config);
  }

  @Get(['', '*path'])
  file(@Req() req: Request, @Res() res: Response): void {
    const path = req.path.slice('/console'.length);
    // `/console` itself: the relative URLs of the page resolve against `/console/`, so send the browser there.
    if (path === '') return res.redirect(308, '/console/');
    const name = decoded(path.slice(1));
    if (name === undefined) throw new ProblemError('ROUTE_NOT_FOUND', 'The console has no such file.');
    const file = this.files.get(name);
    if (file) return this.send(res, name, file, HASHED_ASSET.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache');
    // A missing asset is a 404; any other path is one of the console's own pages, which index.html draws.
    const index = this.files.get(INDEX);
    if (HASHED_ASSET.test(name) || extname(name) !== '' || !index)
      throw new ProblemError('ROUTE_NOT_FOUND', index ? 'The console has no such file.' : 'The console is not built in this installation.');
    this.send(res, INDEX, index, 'no-cache');
  }

  private send(res: Response, name: string, file: string, cacheControl: string): void {
    this.secure(res);
    res.setHeader('Content-Type', MEDIA_TYPES[extname(name)]);
    res.setHeader('Content-Length', String(statSync(file).size));
    res.setHeader('Cache-Control', cacheControl);
    if (res.req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  }

  private secure(res: Response): void {
    res.setHeader('Content-Security-Policy', this.policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  }
}
