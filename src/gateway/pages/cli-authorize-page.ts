// HTML of the CLI sign-in approval page: no scripts, inline styles only (the CSP allows those).

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Sextant</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1d2733}
.code{font:600 2rem/1.2 ui-monospace,monospace;letter-spacing:.15em;background:#f1f4f8;border-radius:8px;padding:.8rem 1rem;text-align:center;margin:1.2rem 0}
.actions{display:flex;gap:.8rem;margin-top:1.5rem}button{font:inherit;padding:.55rem 1.2rem;border-radius:6px;border:1px solid #9aa7b5;background:#fff;cursor:pointer}
button.primary{background:#1769aa;border-color:#1769aa;color:#fff}.muted{color:#5b6876;font-size:.9rem}</style></head>
<body><h1>${esc(title)}</h1>${body}</body></html>`;
}

export interface AuthorizeView {
  /** The browser code of the authorize URL, echoed in the forms. */
  code: string;
  userCode: string;
  csrf: string;
  email: string;
}

/** The approval form: compare the code, then approve or deny. */
export function renderAuthorizePage(v: AuthorizeView): string {
  const hidden = `<input type="hidden" name="code" value="${esc(v.code)}"><input type="hidden" name="csrf" value="${esc(v.csrf)}">`;
  return layout(
    'Sign in to the Sextant CLI?',
    `<p>A command-line tool asks to sign in as <strong>${esc(v.email)}</strong>. Check that your terminal shows this code:</p>
<div class="code" id="user-code">${esc(v.userCode)}</div>
<p class="muted">Only approve if you started this sign-in yourself and the codes match. Approving gives the tool access to your data with your permissions, and replaces your previous CLI token.</p>
<div class="actions"><form method="post" action="/cli/authorize/approve">${hidden}<button class="primary" type="submit">Approve</button></form>
<form method="post" action="/cli/authorize/deny">${hidden}<button type="submit">Deny</button></form></div>`,
  );
}

/** A page with a title and a sentence: outcomes and failures. */
export function renderMessagePage(title: string, text: string): string {
  return layout(title, `<p>${esc(text)}</p>`);
}
