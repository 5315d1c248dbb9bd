// Server-rendered pages of the MCP authorization: consent and the error page.
import type { Principal } from '../../auth/index.ts';
import { escapeHtml } from './create-provider.ts';

/** What each scope lets a client do, in words a person can judge. */
const PERMISSIONS: Record<string, string> = {
  'mcp:tools':
    'Use Sextant as you: browse the data catalog, ask questions and read their answers, search the knowledge base and, if your role allows it, run read-only SQL. Your permissions and row-level security apply.',
  offline_access: 'Stay connected for up to a year without asking you again.',
  openid: 'Learn your Sextant user id.',
};

const STYLE = 'body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}';

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
    `<form method="post" action="/interaction/${encodeURIComponent(v.uid)}/${action}" style="display:inline"><input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}"><button type="submit">${label}</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connect ${escapeHtml(v.clientName)} to Sextant</title><style>${STYLE}</style></head><body>
<h1>Connect <strong>${escapeHtml(v.clientName)}</strong>?</h1>
<p>${escapeHtml(v.clientName)} will return you to <strong>${escapeHtml(v.redirectHost)}</strong> and act as <strong>${escapeHtml(v.principal.email)}</strong> in organization <strong>${escapeHtml(v.principal.orgId)}</strong>.</p>
<p>It asks to:</p><ul>${items}</ul>
<p>You can disconnect it at any time in your settings.</p>
${form('confirm', 'Allow')}${form('abort', 'Deny')}
</body></html>`;
}

/** A plain error page (the message is one the interface fixes or a safe domain message). */
export function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(message)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(message)}</h1><p>Start the connection again from your AI assistant.</p></body></html>`;
}
