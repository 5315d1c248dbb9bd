// A server-rendered API reference without scripts: one section per tag, one block per operation.
import esc from 'escape-html';

type Doc = Record<string, unknown>;
type Op = { operationId?: string; summary?: string; tags?: string[]; parameters?: { name: string; in: string; required?: boolean }[]; requestBody?: unknown; security?: unknown };

/** Renders the OpenAPI document as a readable HTML page. */
export function renderReference(doc: Doc): string {
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Op>>;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).map((p) => `<code>${esc(p.name)}</code> <small>${p.in}${p.required ? ', required' : ''}</small>`).join(', ');
      const body = op.requestBody ? `<div>Body: <code>Body_${esc(op.operationId ?? '')}</code></div>` : '';
      const auth = op.security ? '<span class="auth">credential</span>' : '<span class="open">no credential</span>';
      const html = `<div class="op"><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code> ${auth}<div>${esc(op.summary ?? '')}</div>${params ? `<div>Parameters: ${params}</div>` : ''}${body}</div>`;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const info = doc['info'] as { title: string; version: string };
  const sections = [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([tag, ops]) => `<h2>${esc(tag)}</h2>${ops.join('')}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)} API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d2733}
.op{border:1px solid #d8dee6;border-radius:6px;padding:.6rem .8rem;margin:.5rem 0}.m{font-weight:700;display:inline-block;min-width:4.5em}
.get{color:#1769aa}.post{color:#2e7d32}.put,.patch{color:#a66b00}.delete{color:#b3261e}.auth,.open{font-size:12px;border-radius:4px;padding:0 .4em;margin-left:.5em}
.auth{background:#fff3cd}.open{background:#e6f4ea}code{font-size:14px}</style></head>
<body><h1>${esc(info.title)} API <small>${esc(info.version)}</small></h1>
<p>Machine-readable document: <a href="/openapi.json">/openapi.json</a>. Validation failures answer 422 with an <code>HTTPValidationError</code> body; other failures answer <code>{"detail", "code"}</code>.</p>
${sections.join('\n')}</body></html>`;
}
