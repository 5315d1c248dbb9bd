// HTML of the sign-in page. Every interpolated value goes through `esc`.
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole page around some form. */
export function page(title: string, inner: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Sextant</title><style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}
.error{color:#b00020}code{word-break:break-all}</style></head><body><h1>${esc(title)}</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}${inner}</body></html>`;
}

const hidden = (csrf: string, next: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(next)}">`;

export function passwordForm(csrf: string, next: string, email = ''): string {
  return `<form method="post" action="/login">${hidden(csrf, next)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${esc(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`;
}

export function mfaForm(csrf: string, next: string): string {
  return `<form method="post" action="/login/mfa">${hidden(csrf, next)}
<label for="code">Authenticator or recovery code</label><input id="code" name="code" autocomplete="one-time-code" required autofocus>
<button type="submit">Continue</button></form>`;
}

export function enrollForm(csrf: string, next: string, setup: { provisioning_uri: string; secret: string }): string {
  return `<p>Your organization requires two-factor authentication. Add this account to your authenticator app
(open the link on your phone, or type the key), then enter the code it shows.</p>
<p><a href="${esc(setup.provisioning_uri)}">Add to authenticator</a></p><p>Key: <code>${esc(setup.secret)}</code></p>
<form method="post" action="/login/enroll">${hidden(csrf, next)}
<label for="code">Code from the app</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">Turn on and continue</button></form>`;
}

export function recoveryCodesPage(codes: string[], next: string): string {
  return `<p>Two-factor authentication is on. Keep these recovery codes somewhere safe; each works once and they are shown only now.</p>
<ul>${codes.map((c) => `<li><code>${esc(c)}</code></li>`).join('')}</ul><p><a href="${esc(next)}">Continue</a></p>`;
}
