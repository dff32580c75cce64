import { OIDC_SCOPE_LABELS, OidcScope } from '../../shared/identity/oidc-clients';

/** Escapes text for HTML content and attribute values: nothing a request carries is ever markup here. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The login card's look (client/src/features/identity/auth/components/login.css), for the provider's own pages. */
const CARD_STYLE = `
body{margin:0}
.lp-page{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;box-sizing:border-box;background:#fafafa;color:#09090b;font-family:Inter,-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:1rem;line-height:1.5rem}
.lp-page *{box-sizing:border-box}
.lp-card{width:450px;max-width:100%;background:#fff;border:1px solid #e4e4e7;border-radius:.5rem}
.lp-card-header{padding:1.5rem 1.5rem 0;display:flex;flex-direction:column;align-items:center;gap:.5rem;text-align:center}
.lp-title{margin:0;font-size:1.5rem;line-height:2rem;font-weight:600}
.lp-card-body{padding:1.5rem}
.lp-text{margin:0 0 1rem;color:#3f3f46}
.lp-list{margin:0 0 1.5rem;padding-left:1.25rem;color:#3f3f46}
.lp-actions{display:flex;gap:.75rem;justify-content:flex-end}
.lp-button{font:inherit;font-weight:500;border-radius:.375rem;padding:.5rem 1rem;min-height:2.5rem;cursor:pointer;border:1px solid #e4e4e7;background:#fff;color:#09090b}
.lp-button-primary{background:#18181b;border-color:#18181b;color:#fff}
.lp-button:focus-visible{outline:2px solid #3b82f6;outline-offset:2px}
`;

/** A page with one card: the consent screen, the logout question, an error. */
export function cardPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CARD_STYLE}</style>
</head>
<body>
<main class="lp-page">
<section class="lp-card" aria-labelledby="card-title">
<header class="lp-card-header"><h1 id="card-title" class="lp-title">${escapeHtml(title)}</h1></header>
<div class="lp-card-body">${body}</div>
</section>
</main>
</body>
</html>`;
}

/** The consent screen: the application, what it will read, "Allow" and "Cancel". */
export function consentPage(appName: string, scopes: string[], action: string, cancel: string): string {
  const items = scopes
    .filter((s): s is OidcScope => s in OIDC_SCOPE_LABELS)
    .map((s) => `<li>${escapeHtml(OIDC_SCOPE_LABELS[s])}</li>`)
    .join('');
  return cardPage(
    `Allow ${appName}?`,
    `<p class="lp-text"><strong>${escapeHtml(appName)}</strong> asks to sign you in and to read:</p>
<ul class="lp-list">${items}</ul>
<div class="lp-actions">
<form method="post" action="${escapeHtml(cancel)}"><button class="lp-button" type="submit">Cancel</button></form>
<form method="post" action="${escapeHtml(action)}"><button class="lp-button lp-button-primary" type="submit" autofocus>Allow</button></form>
</div>`,
  );
}

/** An error the provider cannot send back to an application (an unknown application, a wrong redirect URI). */
export function errorPage(error: string, description: string | undefined): string {
  return cardPage(
    'This sign-in cannot continue',
    `<p class="lp-text">The application that sent you here made a request the portal cannot accept${
      description ? `: ${escapeHtml(description)}` : '.'
    }</p>
<p class="lp-text">Error: <code>${escapeHtml(error)}</code></p>
<p class="lp-text"><a href="/">Go to the portal</a></p>`,
  );
}

/** The end-session question ("sign out of the portal?"), with the provider's own hidden form. */
export function logoutPage(form: string): string {
  return cardPage(
    'Sign out of the portal?',
    `${form}<p class="lp-text">You will be signed out of the portal and of the applications you opened with it.</p>
<div class="lp-actions">
<button class="lp-button" type="submit" form="op.logoutForm">Stay signed in</button>
<button class="lp-button lp-button-primary" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
</div>`,
  );
}

/** After a sign-out without an address to return to. */
export function loggedOutPage(): string {
  return cardPage('You are signed out', '<p class="lp-text"><a href="/logIn">Sign in again</a></p>');
}

/** The origins of a list of addresses, for a page's form-action (a form's redirect chain must be allowed). */
export function originsOf(uris: readonly string[] | undefined): string[] {
  const origins = new Set<string>();
  for (const u of uris ?? []) {
    try {
      origins.add(new URL(u).origin);
    } catch {
      // Not an address: nothing to allow.
    }
  }
  return [...origins];
}

/** The content security policy of the provider's own pages: nothing but inline styles, forms to here and `also`. */
export function pageCsp(also: string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action 'self' ${also.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}
