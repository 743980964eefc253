import type { SessionView } from '@dsar/contracts';
import type { ComponentChildren } from 'preact';
import { PRODUCT_NAME } from '../use-title';
import { Link } from './Link';

/** The page's frame when signed in: who the console acts as (with "Sign out"), the navigation and the main region. */
export function Layout({ session, onSignOut, queueCurrent, children }: { session: SessionView; onSignOut: () => void; queueCurrent: boolean; children: ComponentChildren }) {
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
