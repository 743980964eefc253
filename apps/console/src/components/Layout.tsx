import type { Permission, SessionView } from '@dsar/contracts';
import type { ComponentChildren } from 'preact';
import { ADMIN_PAGES, adminPath, type AdminPage, DASHBOARD_PATH } from '../router';
import { PRODUCT_NAME } from '../use-title';
import { Link } from './Link';

/** The administration pages in the navigation, each shown to a caller whose permissions let it read the page. */
const ADMIN_NAV: Readonly<Record<AdminPage, { label: string; permission: Permission }>> = {
  'data-systems': { label: 'Data systems', permission: 'systems:read' },
  retention: { label: 'Retention', permission: 'retention:read' },
  policies: { label: 'Policies', permission: 'policies:read' },
};

/** The dashboard reads the figures (`GET /stats/requests`, `GET /stats/tasks`), which need this permission. */
const DASHBOARD_PERMISSION: Permission = 'requests:read';

/** The page's frame when signed in: who the console acts as (with "Sign out"), the navigation and the main region. */
export function Layout({
  session,
  onSignOut,
  queueCurrent,
  currentPage,
  children,
}: {
  session: SessionView;
  onSignOut: () => void;
  queueCurrent: boolean;
  /** The page shown (router.ts's `page`), for the navigation's current link. */
  currentPage?: string;
  children: ComponentChildren;
}) {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the content
      </a>
      <header class="top-bar">
        <span class="brand">{PRODUCT_NAME}</span>
        <div class="who">
          <span class="who-item">
            <span class="visually-hidden">Signed in as </span>
            <span class="principal">{session.principal}</span>
          </span>
          <span class="who-item">
            Tenant <strong>{session.tenantId}</strong>
          </span>
          <span class="who-item">
            Workspace <strong>{session.workspaceId ?? 'all'}</strong>
          </span>
          <span class="who-item">
            {session.roles.length === 1 ? 'Role' : 'Roles'} <strong>{session.roles.length > 0 ? session.roles.join(', ') : 'none'}</strong>
          </span>
          <button type="button" class="sign-out" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav class="main-nav" aria-label="Main">
        <ul>
          <li>
            <Link href="/console/requests" current={queueCurrent}>
              Requests
            </Link>
          </li>
          {session.permissions.includes(DASHBOARD_PERMISSION) ? (
            <li>
              <Link href={DASHBOARD_PATH} current={currentPage === 'dashboard'}>
                Dashboard
              </Link>
            </li>
          ) : null}
          {ADMIN_PAGES.filter((page) => session.permissions.includes(ADMIN_NAV[page].permission)).map((page) => (
            <li key={page}>
              <Link href={adminPath(page)} current={currentPage === page}>
                {ADMIN_NAV[page].label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The frame when signed out: the product's name and the main region (the sign-in screen). */
export function SignedOutLayout({ children }: { children: ComponentChildren }) {
  return (
    <>
      <header class="top-bar">
        <span class="brand">{PRODUCT_NAME}</span>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
