// A small YAML writer for the files an import makes: block mappings and sequences, plain scalars
// where they cannot be misread, JSON-style double quotes otherwise. The `yaml` package's Document
// writer took milliseconds a file; an import writes and compares thousands of them.

const PLAIN = /^[A-Za-z_][A-Za-z0-9_ .,()/'%+-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const quote = (s: string) => JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  const s = String(v);
  return PLAIN.test(s) && !RESERVED.test(s) && !s.endsWith(' ') && !s.includes(' #') && !s.includes(': ') ? s : quote(s);
}

const key = (k: string) => (KEY.test(k) && !RESERVED.test(k) ? k : quote(k));
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const defined = (o: Record<string, unknown>) => Object.entries(o).filter(([, v]) => v !== undefined);

function block(v: unknown, indent: string, out: string[]): void {
  if (isMap(v)) {
    for (const [k, x] of defined(v)) entry(`${indent}${key(k)}:`, x, indent, out);
  } else if (Array.isArray(v)) {
    for (const x of v) item(x, indent, out);
  }
}

function entry(head: string, v: unknown, indent: string, out: string[]): void {
  if (isMap(v) && defined(v).length > 0) {
    out.push(head);
    block(v, `${indent}  `, out);
  } else if (Array.isArray(v) && v.length > 0) {
    out.push(head);
    block(v, `${indent}  `, out);
  } else out.push(`${head} ${isMap(v) ? '{}' : Array.isArray(v) ? '[]' : scalar(v)}`);
}

function item(v: unknown, indent: string, out: string[]): void {
  if (isMap(v) && defined(v).length > 0) {
    const lines: string[] = [];
    block(v, `${indent}  `, lines);
    out.push(`${indent}- ${lines[0]!.slice(indent.length + 2)}`, ...lines.slice(1));
  } else if (Array.isArray(v) && v.length > 0) {
    const lines: string[] = [];
    block(v, `${indent}  `, lines);
    out.push(`${indent}- ${lines[0]!.slice(indent.length + 2)}`, ...lines.slice(1));
  } else out.push(`${indent}- ${isMap(v) ? '{}' : Array.isArray(v) ? '[]' : scalar(v)}`);
}

/** The YAML text of a mapping. */
export function yamlText(doc: Record<string, unknown>): string {
  const out: string[] = [];
  block(doc, '', out);
  return `${out.join('\n')}\n`;
}
