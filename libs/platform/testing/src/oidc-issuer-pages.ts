/**
 * The test issuer's own pages, in place of oidc-provider's: its built-in ones import a web font from a third party
 * (which the browser tests must not see) and its sign-out page waits for a click. Plain HTML, no inline script or
 * style, so that they work under any content security policy. The names below are what `signInAtIssuer` and the
 * tests look for: keep them stable.
 */
export const ISSUER_PAGE_NAMES = {
  /** The accessible name of the sign-in form. */
  signInForm: 'Sign in at the test issuer',
  login: 'Login',
  password: 'Password',
  submit: 'Sign in',
  /** The sign-in form's `role="alert"` text when the login is not one of the issuer's accounts. */
  unknownLogin: 'No account with this login.',
} as const;

/** The script of the sign-out page: it confirms at once, so that signing out needs no click at the issuer. */
export const SIGN_OUT_SCRIPT_PATH = '/test-issuer/sign-out.js';
export const SIGN_OUT_SCRIPT = "document.getElementById('test-issuer-sign-out').click();\n";

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageModel {
  /** Where the form posts to. */
  action: string;
  /** The login to fill in (a login_hint, or what was typed before). */
  login?: string;
  unknownLogin?: boolean;
}

export function loginPage(model: LoginPageModel): string {
  const names = ISSUER_PAGE_NAMES;
  const problem = model.unknownLogin ? `<p role="alert">${escapeHtml(names.unknownLogin)}</p>\n` : '';
  return page(
    'Sign in - test issuer',
    `<h1>Sign in</h1>
<form method="post" action="${escapeHtml(model.action)}" aria-label="${escapeHtml(names.signInForm)}">
${problem}<p><label for="login">${escapeHtml(names.login)}</label>
<input id="login" name="login" autocomplete="username" required value="${escapeHtml(model.login ?? '')}"></p>
<p><label for="password">${escapeHtml(names.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">${escapeHtml(names.submit)}</button></p>
</form>`,
  );
}

/** oidc-provider's confirmation form (`form`: its markup, with the XSRF token), confirmed by SIGN_OUT_SCRIPT. */
export function signOutPage(form: string): string {
  return page(
    'Sign out - test issuer',
    `<h1>Sign out</h1>
${form}
<p><button id="test-issuer-sign-out" type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></p>
<script src="${SIGN_OUT_SCRIPT_PATH}"></script>`,
  );
}

export function signedOutPage(): string {
  return page('Signed out - test issuer', '<h1>Signed out</h1>\n<p>You are signed out of the test issuer.</p>');
}

export function errorPage(fields: Record<string, unknown>): string {
  const lines = Object.entries(fields).map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`);
  return page('Error - test issuer', `<h1>Something went wrong</h1>\n${lines.join('\n')}`);
}
