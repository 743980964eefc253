import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type ConsoleSettings, PORTAL_FOLDER } from './console-settings';
import { CONSOLE_SETTINGS } from './gateway-tokens';
import { StaticSite } from './static-site';

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
  private readonly site: StaticSite;
  private readonly config: string;

  constructor(@Inject(CONSOLE_SETTINGS) settings: ConsoleSettings) {
    this.site = new StaticSite({
      mount: '/console',
      dir: settings.dir,
      // The download page's files are in the same build, and served under /portal/ only.
      exclude: [PORTAL_FOLDER],
      pageRoutes: true,
      pageCacheControl: 'no-cache',
      headers: {
        'Content-Security-Policy': consoleContentSecurityPolicy(settings),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cross-Origin-Opener-Policy': 'same-origin',
      },
      noSuchFile: 'The console has no such file.',
      notBuilt: 'The console is not built in this installation.',
    });
    if (!this.site.built) this.logger.warn(`the console is not built (no ${this.site.indexPath}): /console/ answers 404; run npm run console:build`);
    this.config = JSON.stringify(consoleConfigOf(settings));
  }

  @Get('config.json')
  configuration(@Res() res: Response): void {
    this.site.secure(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json; charset=utf-8').send(this.config);
  }

  @Get(['', '*path'])
  file(@Req() req: Request, @Res() res: Response): void {
    this.site.serve(req, res);
  }
}
