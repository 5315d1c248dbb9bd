// Server-rendered pages of the MCP authorization: consent and the error page.
import type { Principal } from '../../auth/index.ts';
import escapeHtml from 'escape-html';

/** What each scope lets a client do, in words a person can judge. */
const PERMISSIONS: Record<string, string> = {
  'mcp:tools':
    'Use Sextant as you: browse the data catalog, ask questions and read their answers, search the knowledge base and, if your role allows it, run read-only SQL. Your permissions and row-level security apply.',
  offline_access: 'Stay connected for up to a year without asking you again.',
  openid: 'Learn your Sextant user id.',
};

/** The web client's stylesheet, shared by every page the server renders. */
const HEAD = '<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><link rel="stylesheet" href="/theme.css">';

export interface ConsentView {
  uid: string;
  clientName: string;
  redirectHost: string;
  scopes: string[];
  principal: Principal;
  csrf: string;
}

/** The consent page: client, where it sends you back, what it may do, as whom. */
export function consentPage(v: ConsentView): string {
  const items = v.scopes.map((sc) => `<li>${escapeHtml(PERMISSIONS[sc] ?? sc)}</li>`).join('');
  const form = (action: string, label: string) =>
    `<form method="post" action="/interaction/${encodeURIComponent(v.uid)}/${action}"><input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}"><button type="submit"${action === 'confirm' ? ' class="primary"' : ''}>${label}</button></form>`;
  return `<!doctype html><html lang="en"><head>${HEAD}<title>Connect ${escapeHtml(v.clientName)} to Sextant</title></head><body><main class="card-page wide"><div class="card">
<h1>Connect <strong>${escapeHtml(v.clientName)}</strong>?</h1>
<p>${escapeHtml(v.clientName)} will return you to <strong>${escapeHtml(v.redirectHost)}</strong> and act as <strong>${escapeHtml(v.principal.email)}</strong> in organization <strong>${escapeHtml(v.principal.orgId)}</strong>.</p>
<p>It asks to:</p><ul>${items}</ul>
<p>You can disconnect it at any time in your settings.</p>
<div class="actions">${form('confirm', 'Allow')}${form('abort', 'Deny')}</div>
</div></main></body></html>`;
}

/** A plain error page (the message is one the interface fixes or a safe domain message). */
export function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head>${HEAD}<title>${escapeHtml(message)}</title></head><body><main class="card-page"><div class="card"><h1>${escapeHtml(message)}</h1><p>Start the connection again from your AI assistant.</p></div></main></body></html>`;
}
