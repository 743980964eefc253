import { useState } from 'preact/hooks';
import { ProblemView } from '../components/ProblemView';
import type { Problem } from '../problem';
import { useTitle } from '../use-title';
import { useAuth } from './auth';

/** The sign-in screen: through the identity provider, and/or with an API key, as config.json allows. */
export function SignInPage() {
  const auth = useAuth();
  const { config, state } = auth;
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [keyProblem, setKeyProblem] = useState<Problem | null>(null);
  useTitle('Sign in');
  if (state.status === 'signed-in') return null;
  const checking = state.status === 'signed-out' && state.checking;

  const submitKey = async (event: Event) => {
    event.preventDefault();
    if (key.trim() === '') {
      setKeyProblem({ status: 0, title: 'Enter an API key', detail: null, code: null });
      return;
    }
    setBusy(true);
    setKeyProblem(null);
    const problem = await auth.signInWithKey(key);
    setBusy(false);
    if (problem) setKeyProblem(problem.status === 401 ? { ...problem, title: 'This key was not accepted' } : problem);
  };

  return (
    <div class="sign-in">
      <h1 tabIndex={-1}>Sign in</h1>
      {state.status === 'signed-out' && state.notice ? (
        <p role="status" class="notice">
          {state.notice}
        </p>
      ) : null}
      {state.status === 'signed-out' && state.problem ? <ProblemView problem={state.problem} /> : null}
      {state.status === 'starting' ? <p role="status">Signing you in…</p> : null}
      {/* The sections are not labelled: "API key" names the key's field alone. */}
      {config.oidc ? (
        <section class="sign-in-method">
          <h2>With your organisation's account</h2>
          {checking ? (
            <p role="status" class="muted">
              Checking for a session at your identity provider…
            </p>
          ) : null}
          <button type="button" class="primary" onClick={() => auth.signInWithIssuer()}>
            Sign in
          </button>
        </section>
      ) : null}
      {config.keySignIn ? (
        <section class="sign-in-method">
          <h2>Sign in with an API key</h2>
          <p class="muted">The key stays in this page's memory only: a reload asks for it again.</p>
          <form onSubmit={submitKey} noValidate>
            <div class="field">
              <label for="api-key">API key</label>
              <input
                id="api-key"
                type="password"
                autoComplete="off"
                spellcheck={false}
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
                aria-invalid={keyProblem ? 'true' : undefined}
                aria-describedby={keyProblem ? 'api-key-problem' : undefined}
              />
            </div>
            <div id="api-key-problem">{keyProblem ? <ProblemView problem={keyProblem} /> : null}</div>
            <button type="submit" class="primary" disabled={busy}>
              Sign in with key
            </button>
          </form>
        </section>
      ) : null}
      {!config.oidc && !config.keySignIn ? <p>No way to sign in is configured: ask your administrator to set up the console's sign-in (docs/console.md).</p> : null}
    </div>
  );
}
