import { join } from 'node:path';
import { Controller, Get, Inject, Logger, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type ConsoleSettings, PORTAL_FOLDER } from './console-settings';
import { CONSOLE_SETTINGS } from './gateway-tokens';
import { StaticSite } from './static-site';

/**
 * The Content-Security-Policy of the download page: its own script, style sheet and icon, calls to this origin only
 * (the public API), no frame of it anywhere, no inline code. Nothing else is needed: the page signs in no one.
 */
export const PORTAL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The person's download page (docs/delivery.md): `/portal/` is its one page, which reads the link from the address's
 * fragment and calls /api/v1/portal/…; its files come from `portal/` of the console's build (CONSOLE_DIR). The page is
 * never cached (`no-store`: it is opened with a credential in the fragment, and a stale page would call an API that
 * moved on), its hashed assets for good. It holds no state: the API checks the link, the code and the session.
 */
@Controller('portal')
export class PortalController {
  private readonly logger = new Logger('Portal');
  private readonly site: StaticSite;

  constructor(@Inject(CONSOLE_SETTINGS) settings: ConsoleSettings) {
    this.site = new StaticSite({
      mount: '/portal',
      dir: join(settings.dir, PORTAL_FOLDER),
      pageRoutes: false,
      pageCacheControl: 'no-store',
      headers: {
        'Content-Security-Policy': PORTAL_CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cross-Origin-Opener-Policy': 'same-origin',
      },
      noSuchFile: 'The download page has no such file.',
      notBuilt: 'The download page is not built in this installation.',
    });
    if (!this.site.built) this.logger.warn(`the download page is not built (no ${this.site.indexPath}): /portal/ answers 404; run npm run console:build`);
  }

  @Get(['', '*path'])
  file(@Req() req: Request, @Res() res: Response): void {
    this.site.serve(req, res);
  }
}
