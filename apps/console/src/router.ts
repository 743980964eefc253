/**
 * The console's pages by their path under /console/ (the gateway answers index.html for each): a small router on the
 * History API, no dependency. `routeOf` is pure; `navigate` changes the address and tells the app (use-location.ts).
 */
export const BASE_PATH = '/console/';

export type Route =
  | { page: 'queue' }
  /** The figures of the tenant (pages/dashboard.tsx). */
  | { page: 'dashboard' }
  | { page: 'request'; id: string }
  /** The issuer's redirect after sign-in (`redirect_uri`). */
  | { page: 'signed-in' }
  /** The issuer's redirect in the hidden frame of a silent renewal (`silent_redirect_uri`). */
  | { page: 'renewed' }
  /** The administration pages (pages/admin). */
  | { page: AdminPage }
  | { page: 'not-found' };

/** The administration pages, each at `/console/<its name>`. */
export const ADMIN_PAGES = ['data-systems', 'retention', 'policies'] as const;
export type AdminPage = (typeof ADMIN_PAGES)[number];

export function adminPath(page: AdminPage): string {
  return `${BASE_PATH}${page}`;
}

function isAdminPage(segment: string): segment is AdminPage {
  return (ADMIN_PAGES as readonly string[]).includes(segment);
}

/** A request id or reference as a path segment: letters, digits and dashes, nothing that could leave the path. */
const ID_SEGMENT = /^[0-9A-Za-z-]{1,64}$/;

function segmentOf(raw: string): string | undefined {
  try {
    const decoded = decodeURIComponent(raw);
    return ID_SEGMENT.test(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

export function routeOf(pathname: string): Route {
  if (pathname === '/console' || pathname === BASE_PATH) return { page: 'queue' };
  if (!pathname.startsWith(BASE_PATH)) return { page: 'not-found' };
  const parts = pathname.slice(BASE_PATH.length).split('/');
  // A trailing slash names the same page.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 1 && parts[0] === 'requests') return { page: 'queue' };
  if (parts.length === 1 && parts[0] === 'dashboard') return { page: 'dashboard' };
  if (parts.length === 1 && parts[0] === 'signed-in') return { page: 'signed-in' };
  if (parts.length === 1 && parts[0] === 'renewed') return { page: 'renewed' };
  if (parts.length === 1 && isAdminPage(parts[0])) return { page: parts[0] };
  if (parts.length === 2 && parts[0] === 'requests') {
    const id = segmentOf(parts[1]);
    if (id !== undefined) return { page: 'request', id };
  }
  return { page: 'not-found' };
}

export const QUEUE_PATH = `${BASE_PATH}requests`;
export const DASHBOARD_PATH = `${BASE_PATH}dashboard`;

export function requestPath(id: string): string {
  return `${BASE_PATH}requests/${encodeURIComponent(id)}`;
}

/** Fired on window after `navigate` (pushState fires no event of its own). */
export const NAVIGATED = 'console:navigated';

/** Goes to a path of the console without a page load. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATED));
}

/**
 * Where to come back to after a sign-in: a path of the console (with its query), never another origin and never the
 * sign-in callbacks themselves; anything else is the queue.
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || !candidate.startsWith(BASE_PATH) || candidate.startsWith('//') || candidate.includes('\\')) return BASE_PATH;
  const path = candidate.split(/[?#]/, 1)[0];
  const route = routeOf(path);
  if (route.page === 'signed-in' || route.page === 'renewed') return BASE_PATH;
  return candidate;
}
