import type { SessionView } from '@dsar/contracts';
import type { User, UserManager } from 'oidc-client-ts';
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from '../api';
import type { ConsoleConfig } from '../config';
import type { Problem } from '../problem';
import { BASE_PATH, navigate, routeOf, safeReturnPath } from '../router';
import { userManagerFor } from './oidc';

/*
 * Who the console acts as: the sign-in (through the issuer, or with an API key), the session the gateway reports
 * (`GET /api/v1/session`), the token every API call carries, and the end of it all (sign-out, or a 401). The token is
 * in memory only. The sign-in screen replaces the page without changing the address, so that after a sign-in (or a
 * 401 and a new sign-in) the user is back where they were.
 */

export type SignInMethod = 'oidc' | 'key';

export type AuthState =
  /** Reading the issuer's answer (`/console/signed-in`). */
  | { status: 'starting' }
  | {
      status: 'signed-out';
      /** Whether the console is still asking the issuer, silently, whether the user has a session there. */
      checking: boolean;
      /** Why the user is here: the session ended, or they signed out. */
      notice?: string;
      problem?: Problem;
    }
  | { status: 'signed-in'; session: SessionView; method: SignInMethod };

export interface Auth {
  config: ConsoleConfig;
  state: AuthState;
  /** The API client of the signed-in user (a call without a session gets a 401). */
  api: ApiClient;
  signInWithIssuer(): void;
  /** Signs in with an API key: the problem when the gateway does not take it. */
  signInWithKey(key: string): Promise<Problem | null>;
  signOut(): void;
}

const AuthContext = createContext<Auth | null>(null);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** The signed-in session; for pages that are only drawn signed in. */
export function useSession(): SessionView {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useSession while signed out');
  return state.session;
}

const SESSION_ENDED = 'Your session has ended. Sign in again to go on.';

function problemOf(title: string, error: unknown): Problem {
  return { status: 0, title, detail: error instanceof Error ? error.message : null, code: null };
}

/** Where the user is now, to come back to after signing in. */
const currentPath = () => safeReturnPath(`${window.location.pathname}${window.location.search}`);

export function AuthProvider({ config, children }: { config: ConsoleConfig; children: ComponentChildren }) {
  const token = useRef<string | null>(null);
  const [state, setState] = useState<AuthState>(() =>
    config.oidc && routeOf(window.location.pathname).page === 'signed-in' ? { status: 'starting' } : { status: 'signed-out', checking: config.oidc !== null },
  );
  const stateRef = useRef(state);
  stateRef.current = state;
  const userManager = useMemo<UserManager | null>(() => (config.oidc ? userManagerFor(config.oidc) : null), [config]);

  const endSession = (notice: string | undefined) => {
    token.current = null;
    setState({ status: 'signed-out', checking: false, ...(notice ? { notice } : {}) });
  };

  const api = useMemo(
    () =>
      new ApiClient({
        base: config.apiBase,
        token: () => token.current,
        onUnauthorized: () => {
          if (stateRef.current.status !== 'signed-in') return;
          if (userManager) void userManager.removeUser().catch(() => undefined);
          endSession(SESSION_ENDED);
        },
      }),
    [config, userManager],
  );

  /** Asks the gateway who the token is: signed in with it, or the problem. */
  const sessionFor = async (candidate: string): Promise<{ session: SessionView } | { problem: Problem }> => {
    // A client of its own: a 401 here is a refused sign-in, not the end of a session.
    const probe = new ApiClient({ base: config.apiBase, token: () => candidate });
    const result = await probe.get<SessionView>('/session');
    return result.ok ? { session: result.data } : { problem: result.problem };
  };

  const adoptUser = async (user: User): Promise<void> => {
    const outcome = await sessionFor(user.access_token);
    if ('problem' in outcome) {
      token.current = null;
      setState({ status: 'signed-out', checking: false, problem: outcome.problem });
      return;
    }
    token.current = user.access_token;
    setState({ status: 'signed-in', session: outcome.session, method: 'oidc' });
  };

  useEffect(() => {
    if (!userManager) {
      // No issuer: nothing comes back to /console/signed-in; the queue is the page to be on.
      if (routeOf(window.location.pathname).page === 'signed-in') navigate(BASE_PATH, { replace: true });
      return;
    }
    // A renewal replaces the token for the calls that follow; when it fails for good, the token expires.
    const offLoaded = userManager.events.addUserLoaded((user) => {
      if (stateRef.current.status === 'signed-in' && stateRef.current.method === 'oidc') token.current = user.access_token;
    });
    const offExpired = userManager.events.addAccessTokenExpired(() => {
      if (stateRef.current.status === 'signed-in' && stateRef.current.method === 'oidc') endSession(SESSION_ENDED);
    });
    let cancelled = false;
    if (routeOf(window.location.pathname).page === 'signed-in') {
      userManager
        .signinRedirectCallback()
        .then(async (user) => {
          navigate(safeReturnPath(user.url_state), { replace: true });
          if (!cancelled) await adoptUser(user);
        })
        .catch((error: unknown) => {
          navigate(BASE_PATH, { replace: true });
          if (!cancelled) setState({ status: 'signed-out', checking: false, problem: problemOf('Sign-in failed', error) });
        });
    } else {
      // A new page has no token: the issuer's session, where there is one, signs the user in again without a click.
      userManager
        .signinSilent()
        .then(async (user) => {
          if (cancelled || !user || stateRef.current.status !== 'signed-out') return;
          await adoptUser(user);
        })
        .catch(() => {
          if (!cancelled && stateRef.current.status === 'signed-out') setState({ ...stateRef.current, checking: false });
        });
    }
    return () => {
      cancelled = true;
      offLoaded();
      offExpired();
    };
    // Once per page: the user manager lives as long as the config.
  }, [userManager]);

  const auth: Auth = {
    config,
    state,
    api,
    signInWithIssuer: () => {
      if (!userManager) return;
      userManager.signinRedirect({ url_state: currentPath() }).catch((error: unknown) => {
        setState({ status: 'signed-out', checking: false, problem: problemOf('The identity provider could not be reached', error) });
      });
    },
    signInWithKey: async (key: string) => {
      const outcome = await sessionFor(key.trim());
      if ('problem' in outcome) return outcome.problem;
      token.current = key.trim();
      setState({ status: 'signed-in', session: outcome.session, method: 'key' });
      return null;
    },
    signOut: () => {
      const current = stateRef.current;
      if (current.status === 'signed-in' && current.method === 'oidc' && userManager) {
        // At the issuer too; one without an end-session endpoint refuses, and the console forgets the user alone.
        userManager.signoutRedirect().catch(() => {
          void userManager.removeUser().catch(() => undefined);
          endSession('You are signed out.');
        });
        return;
      }
      endSession('You are signed out.');
    },
  };

  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
