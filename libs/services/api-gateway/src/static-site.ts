import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { Request, Response } from 'express';
import { ProblemError } from '@dsar/platform/errors';

/**
 * The files of a page the gateway serves as it was built (`npm run console:build`): the operator console under
 * /console/ and the person's download page under /portal/. Only the files listed at start are served, by their path
 * under the mount, with the page's own security headers; Vite names the assets after their content, so they are
 * cached for good, while the page itself is read again each time.
 */

/** Media types of the files a build holds; a file of another kind is not served. */
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
const IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX = 'index.html';

export interface StaticSiteOptions {
  /** The path it is served under, without the trailing slash: `/console`. */
  mount: string;
  /** The folder of its build. */
  dir: string;
  /** Folders of `dir` that are another site's (the download page's `portal/` inside the console's build). */
  exclude?: readonly string[];
  /** Whether a path without a file extension is one of the page's own routes, which index.html draws. */
  pageRoutes: boolean;
  /** Cache-Control of index.html. */
  pageCacheControl: string;
  /** Headers of every answer: the CSP and the rest of the page's security headers. */
  headers: Readonly<Record<string, string>>;
  /** The problem details of a 404: no such file, and no build at all. */
  noSuchFile: string;
  notBuilt: string;
}

/** The files of `dir` by their path under it (`assets/index-abc.js`), read once: a name not listed is never opened. */
function filesOf(dir: string, exclude: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(dir, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (!exclude.includes(name)) walk(path);
      } else if (entry.isFile() && Object.hasOwn(MEDIA_TYPES, extname(entry.name))) files.set(name, path);
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

export class StaticSite {
  private readonly files: Map<string, string>;

  constructor(private readonly options: StaticSiteOptions) {
    this.files = filesOf(options.dir, options.exclude ?? []);
  }

  /** Whether the build is there (its index.html). */
  get built(): boolean {
    return this.files.has(INDEX);
  }

  get indexPath(): string {
    return join(this.options.dir, INDEX);
  }

  /** Answers a GET or HEAD under the mount: a file, index.html for the page's own routes, else a 404 problem. */
  serve(req: Request, res: Response): void {
    const path = req.path.slice(this.options.mount.length);
    // The mount itself: the page's relative URLs resolve against `<mount>/`, so send the browser there.
    if (path === '') return res.redirect(308, `${this.options.mount}/`);
    const name = decoded(path.slice(1));
    if (name === undefined) throw new ProblemError('ROUTE_NOT_FOUND', this.options.noSuchFile);
    const file = this.files.get(name);
    if (file) return this.send(res, name, file, HASHED_ASSET.test(name) ? IMMUTABLE : this.options.pageCacheControl);
    const index = this.files.get(INDEX);
    if (!index) throw new ProblemError('ROUTE_NOT_FOUND', this.options.notBuilt);
    // A missing asset is a 404; a page's own route is drawn by index.html.
    const isPageRoute = name === '' || (this.options.pageRoutes && !HASHED_ASSET.test(name) && extname(name) === '');
    if (!isPageRoute) throw new ProblemError('ROUTE_NOT_FOUND', this.options.noSuchFile);
    this.send(res, INDEX, index, this.options.pageCacheControl);
  }

  /** Sets the site's security headers on an answer (also one the controller writes itself). */
  secure(res: Response): void {
    for (const [name, value] of Object.entries(this.options.headers)) res.setHeader(name, value);
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
}
