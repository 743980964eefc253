import { render } from 'preact';
import { App } from './app';
import { completeSilentRenewal } from './auth/oidc';
import { loadConfig } from './config';
import { routeOf } from './router';
import './styles.css';

/** Starts the console: its configuration first, then either the whole app or, in a silent renewal's frame, nothing. */
async function start(root: HTMLElement): Promise<void> {
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    render(
      <main id="main">
        <h1>The console could not start</h1>
        <p role="alert">Its settings could not be read: {error instanceof Error ? error.message : String(error)}</p>
      </main>,
      root,
    );
    return;
  }
  if (routeOf(window.location.pathname).page === 'renewed') {
    if (config.oidc) await completeSilentRenewal(config.oidc).catch(() => undefined);
    return;
  }
  render(<App config={config} />, root);
}

const root = document.getElementById('app');
if (root) void start(root);
