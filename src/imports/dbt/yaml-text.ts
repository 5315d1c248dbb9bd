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
const hasDefined = (o: Record<string, unknown>) => Object.values(o).some((v) => v !== undefined);
/** A value written on its entry's own line: a scalar, or an empty mapping or sequence. */
const inline = (v: unknown) => (isMap(v) ? '{}' : Array.isArray(v) ? '[]' : scalar(v));

/**
 * Writes the text into one string: a list of lines per nested item, with its first line cut and
 * rebuilt, was most of the rendering's time for thousands of files. `lead` is what the first line
 * starts with instead of `indent` (a sequence item's `- ` goes in front of its first entry).
 */
class Writer {
  text = '';

  block(v: unknown, indent: string, lead: string): void {
    if (isMap(v)) {
      let first = true;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (x === undefined) continue;
        this.entry(`${first ? lead : indent}${key(k)}:`, x, indent);
        first = false;
      }
    } else if (Array.isArray(v)) {
      v.forEach((x: unknown, i) => this.item(x, indent, i === 0 ? lead : indent));
    }
  }

  entry(head: string, v: unknown, indent: string): void {
    if ((isMap(v) && hasDefined(v)) || (Array.isArray(v) && v.length > 0)) {
      this.text += `${head}\n`;
      this.block(v, `${indent}  `, `${indent}  `);
    } else this.text += `${head} ${inline(v)}\n`;
  }

  item(v: unknown, indent: string, lead: string): void {
    if ((isMap(v) && hasDefined(v)) || (Array.isArray(v) && v.length > 0)) this.block(v, `${indent}  `, `${lead}- `);
    else this.text += `${lead}- ${inline(v)}\n`;
  }
}

/** The YAML text of a mapping. */
export function yamlText(doc: Record<string, unknown>): string {
  const w = new Writer();
  w.block(doc, '', '');
  // An empty mapping is an empty line, as it always was.
  return w.text || '\n';
}
