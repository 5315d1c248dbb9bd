// A server-rendered API reference without scripts: one section per tag, one block per operation with
// its parameters, the fields of its request body, its examples, and the events of its stream.
import esc from 'escape-html';

type Doc = Record<string, unknown>;
type Schema = { $ref?: string; type?: unknown; description?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; enum?: unknown[]; const?: unknown; contentSchema?: Schema; title?: string };
type Media = { schema?: Schema; example?: unknown };
type Op = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
  security?: unknown[];
};

/** Renders the OpenAPI document as a readable HTML page. */
export function renderReference(doc: Doc): string {
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Op>>;
  const schemas = ((doc['components'] as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(path, method, op, schemas)]);
    }
  }
  const info = doc['info'] as { title: string; version: string };
  const sections = [...byTag.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([tag, ops]) => `<h2 id="${esc(tag)}">${esc(tag)}</h2>${ops.join('')}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(info.title)} API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d2733}
.op{border:1px solid #d8dee6;border-radius:6px;padding:.6rem .8rem;margin:.5rem 0}.m{font-weight:700;display:inline-block;min-width:4.5em}
.get{color:#1769aa}.post{color:#2e7d32}.put,.patch{color:#a66b00}.delete{color:#b3261e}.auth,.open{font-size:12px;border-radius:4px;padding:0 .4em;margin-left:.5em}
.auth{background:#fff3cd}.open{background:#e6f4ea}code{font-size:14px}table{border-collapse:collapse;margin:.3rem 0}td,th{text-align:left;padding:.1rem .6rem .1rem 0;vertical-align:top}
pre{background:#f5f7fa;padding:.5rem;overflow-x:auto;font-size:13px}details{margin:.3rem 0}</style></head>
<body><h1>${esc(info.title)} API <small>${esc(info.version)}</small></h1>
<p>Machine-readable document: <a href="/openapi.json">/openapi.json</a>. Validation failures answer 422 with an <code>HTTPValidationError</code> body; other failures answer <code>{"detail", "code"}</code>.
Credentials: a session cookie, <code>Authorization: Bearer</code> (session JWT, API or CLI token) or <code>API-KEY</code>; the MCP endpoint takes an OAuth access token or an MCP token in <code>X-API-KEY</code>.</p>
${sections.join('\n')}</body></html>`;
}

function operation(path: string, method: string, op: Op, schemas: Record<string, Schema>): string {
  const auth = op.security?.length ? '<span class="auth">credential</span>' : '<span class="open">no credential</span>';
  const params = (op.parameters ?? []).map((p) => `<code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small>`).join(', ');
  const parts = [`<span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code> ${auth}<div>${esc(op.summary ?? '')}</div>`];
  if (op.description) parts.push(`<div>${esc(op.description)}</div>`);
  if (params) parts.push(`<div>Parameters: ${params}</div>`);
  const body = Object.entries(op.requestBody?.content ?? {});
  if (body.length > 0) {
    const [type, media] = body[0]!;
    parts.push(`<div>Body (${body.map(([t]) => esc(t)).join(' or ')}):</div>${fields(resolve(media.schema, schemas), schemas)}`);
    if (media.example !== undefined) parts.push(exampleBlock('Example request', type, media.example));
  }
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const events = media.schema?.contentSchema && resolve(media.schema.contentSchema, schemas);
      if (events) parts.push(eventList(events, schemas));
      if (media.example !== undefined) parts.push(exampleBlock(`Example response (${esc(status)})`, type, media.example));
    }
  }
  return `<div class="op" id="${esc(op.operationId ?? '')}">${parts.join('')}</div>`;
}

/** The schema a `$ref` names, or the schema itself. */
function resolve(schema: Schema | undefined, schemas: Record<string, Schema>): Schema | undefined {
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  return name === undefined ? schema : schemas[name];
}

/** A table of an object's fields: name, type, required, description. */
function fields(schema: Schema | undefined, schemas: Record<string, Schema>): string {
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length === 0) return '<div><small>(no fields)</small></div>';
  const required = new Set(schema?.required ?? []);
  const rows = properties.map(([name, s]) => `<tr><td><code>${esc(name)}</code></td><td>${esc(typeName(resolve(s, schemas)))}</td><td>${required.has(name) ? 'required' : ''}</td><td>${esc(s.description ?? '')}</td></tr>`);
  return `<table>${rows.join('')}</table>`;
}

function typeName(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map(typeName).join(' | ');
  if (s.type === 'array') return `${typeName(s.items)}[]`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return typeof s.type === 'string' ? s.type : s.title ?? 'any';
}

/** The events a stream carries: one row per event type with its payload fields. */
function eventList(events: Schema, schemas: Record<string, Schema>): string {
  const kinds = (events.oneOf ?? events.anyOf ?? []).map((kind) => {
    const type = kind.properties?.['type']?.const;
    const rest: Schema = { ...kind, properties: Object.fromEntries(Object.entries(kind.properties ?? {}).filter(([name]) => name !== 'type')) };
    return `<details><summary><code>${esc(String(type))}</code>: ${esc(kind.description ?? '')}</summary>${fields(rest, schemas)}</details>`;
  });
  return `<div>Streamed events (<code>event:</code> line, then the <code>data:</code> JSON fields):</div>${kinds.join('')}`;
}

function exampleBlock(title: string, type: string, example: unknown): string {
  const text = typeof example === 'string' ? example : JSON.stringify(example, null, 2);
  return `<details><summary>${title} <small>${esc(type)}</small></summary><pre>${esc(text)}</pre></details>`;
}
