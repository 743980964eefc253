import { useEffect, useRef } from 'preact/hooks';
import { AuthProvider, useAuth } from './auth/auth';
import { SignInPage } from './auth/SignInPage';
import { Layout, SignedOutLayout } from './components/Layout';
import type { ConsoleConfig } from './config';
import { DataSystemsPage } from './pages/admin/data-systems';
import { DashboardPage } from './pages/dashboard';
import { PoliciesPage } from './pages/admin/policies';
import { RetentionPage } from './pages/admin/retention';
import { NotFoundPage } from './pages/not-found';
import { QueuePage } from './pages/queue';
import { RequestPage } from './pages/request';
import { routeOf } from './router';
import { useLocation } from './use-location';

export function App({ config }: { config: ConsoleConfig }) {
  return (
    <AuthProvider config={config}>
      <Shell />
    </AuthProvider>
  );
}

/** After a move to another page, focus goes to its heading, so that a screen reader starts there (not on the first page). */
function useFocusOnPageChange(pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const target = document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main');
    target?.focus();
  }, [pathname]);
}

function Shell() {
  const auth = useAuth();
  const location = useLocation();
  useFocusOnPageChange(location.pathname);
  if (auth.state.status !== 'signed-in') {
    return (
      <SignedOutLayout>
        <SignInPage />
      </SignedOutLayout>
    );
  }
  const route = routeOf(location.pathname);
  return (
    <Layout session={auth.state.session} onSignOut={auth.signOut} queueCurrent={route.page === 'queue'} currentPage={route.page}>
      {route.page === 'queue' ? (
        <QueuePage />
      ) : route.page === 'dashboard' ? (
        <DashboardPage />
      ) : route.page === 'request' ? (
        <RequestPage key={route.id} id={route.id} />
      ) : route.page === 'data-systems' ? (
        <DataSystemsPage />
      ) : route.page === 'retention' ? (
        <RetentionPage />
      ) : route.page === 'policies' ? (
        <PoliciesPage />
      ) : (
        <NotFoundPage />
      )}
    </Layout>
  );
}
