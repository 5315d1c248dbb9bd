// HTML of the CLI sign-in approval page: no scripts; the look comes from the web client's /theme.css.
import esc from 'escape-html';

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${esc(title)} · Sextant</title><link rel="stylesheet" href="/theme.css"></head>
<body><main class="card-page wide"><div class="card"><h1>${esc(title)}</h1>${body}</div></main></body></html>`;
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
<div class="code-display" id="user-code">${esc(v.userCode)}</div>
<p class="muted">Only approve if you started this sign-in yourself and the codes match. Approving gives the tool access to your data with your permissions, and replaces your previous CLI token.</p>
<div class="actions"><form method="post" action="/cli/authorize/approve">${hidden}<button class="primary" type="submit">Approve</button></form>
<form method="post" action="/cli/authorize/deny">${hidden}<button type="submit">Deny</button></form></div>`,
  );
}

/** A page with a title and a sentence: outcomes and failures. */
export function renderMessagePage(title: string, text: string): string {
  return layout(title, `<p>${esc(text)}</p>`);
}
