// YAML through the `yaml` package's Document API: an update changes only the nodes whose values
// changed, so comments, key order and formatting people wrote stay where they were.
import { isDeepStrictEqual } from 'node:util';
import { randomBytes } from 'node:crypto';
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, visit, type Node } from 'yaml';

/** Parses YAML text; `error` is set when the text is not valid YAML. */
export function parseYaml(text: string): { value: unknown; error?: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) return { value: undefined, error: doc.errors[0]!.message };
  try {
    return { value: doc.toJS() };
  } catch (err) {
    // The library refuses to expand aliases past its count (a "billion laughs" document) here, with a
    // ReferenceError: that is the text's fault, said like any other YAML error.
    return { value: undefined, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Renders a new file. */
export function renderYaml(value: unknown): string {
  return new Document(value).toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** Rewrites `text` so that it holds `value`, keeping comments and order of what did not change. */
export function updateYaml(text: string | undefined, value: Record<string, unknown>): string {
  if (text === undefined) return renderYaml(value);
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return renderYaml(value);
  // Re-rendering is not byte-exact (folded text, spacing before comments): an item whose value is
  // unchanged (also once block texts keep their chomping) keeps its text.
  const before: unknown = doc.toJS();
  const folded = foldedTexts(doc, text);
  doc.contents = mergeNode(doc, doc.contents, value, text) as typeof doc.contents;
  if (isDeepStrictEqual(doc.toJS(), before)) return text;
  return keepCommentSpacing(text, keepFoldedTexts(doc, folded));
}

// A folded text (`>`) is folded again by the serializer, not where its author broke its lines. Each
// one the update left as it was is written from its source instead: a placeholder goes through the
// serializer and is replaced by the original lines (header and comment included).
function foldedTexts(doc: Document, text: string): Map<Scalar, { value: unknown; source: string }> {
  const out = new Map<Scalar, { value: unknown; source: string }>();
  visit(doc, {
    Scalar(_key, node) {
      if (node.type === Scalar.BLOCK_FOLDED && node.range) out.set(node, { value: node.value, source: text.slice(node.range[0], node.range[1]) });
    },
  });
  return out;
}

function keepFoldedTexts(doc: Document, folded: Map<Scalar, { value: unknown; source: string }>): string {
  const sources = new Map<string, string>();
  const tag = randomBytes(6).toString('hex');
  for (const [node, was] of folded) {
    if (node.value !== was.value || node.type !== Scalar.BLOCK_FOLDED) continue;
    const placeholder = `sextant-kept-${tag}-${sources.size}`;
    sources.set(placeholder, was.source);
    Object.assign(node, { value: placeholder, type: Scalar.PLAIN, comment: undefined });
  }
  const out = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  if (sources.size === 0) return out;
  return out.replace(new RegExp(`sextant-kept-${tag}-\\d+[^\\n]*\\n`, 'g'), (m) => sources.get(m.split(/[ \n]/)[0]!) ?? m);
}

// The serializer writes one space before a line comment; a line that is otherwise unchanged gets
// back the spacing its author gave it (comments aligned in a column stay aligned).
function keepCommentSpacing(text: string, out: string): string {
  const spaced = new Map<string, string>();
  for (const line of text.split('\n')) if (/ {2,}#/.test(line)) spaced.set(line.replace(/ +#/g, ' #'), line);
  return spaced.size === 0 ? out : out.split('\n').map((line) => spaced.get(line) ?? line).join('\n');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (k: unknown): string => String(isScalar(k) ? k.value : k);
const IDENTITY_KEYS = ['name', 'id', 'question', 'filter'];

function mergeNode(doc: Document, node: unknown, value: unknown, text: string): Node {
  if (isPlainObject(value) && isMap(node)) {
    for (const pair of [...node.items]) if (!(keyOf(pair.key) in value)) node.delete(pair.key);
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const pair = node.items.find((p) => keyOf(p.key) === k);
      if (pair) pair.value = mergeNode(doc, pair.value, v, text);
      else node.set(doc.createNode(k), doc.createNode(v));
    }
    return node;
  }
  if (Array.isArray(value) && isSeq(node)) {
    const old = [...node.items];
    const used = new Set<unknown>();
    node.items = value.map((v, i) => {
      const match = findMatch(old, v, i, used);
      if (match !== undefined) used.add(match);
      return match !== undefined ? mergeNode(doc, match, v, text) : doc.createNode(v);
    });
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    const next = typeof value === 'string' ? keepChomping(node, value, text) : value;
    if (node.value !== next) node.value = next;
    return node;
  }
  return doc.createNode(value);
}

// The serializer picks a block scalar's chomping from the value's trailing line breaks, so an edited
// text that lost (or gained) its final newline would turn `body: |` into `body: |-`. The written
// indicator wins: the new text's trailing newlines are made what that indicator says.
function keepChomping(node: Scalar, value: string, text: string): string {
  if (node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED) return value;
  const header = /^[|>]([1-9]?[+-]?|[+-][1-9]?)/.exec(text.slice(node.range?.[0] ?? 0));
  const chomp = header?.[1]?.replace(/[1-9]/, '') ?? '';
  const body = value.replace(/\n+$/, '');
  if (body === '') return value;
  if (chomp === '-') return body;
  if (chomp === '') return `${body}\n`;
  // Keep (`|+` is only written for two or more): a text that lost its trailing lines gets back those it had.
  return value.endsWith('\n\n') ? value : body + (/\n+$/.exec(String(node.value))?.[0] ?? '\n');
}

// List items are matched by an identity key (a column's name, a question...) so that reordering or
// inserting keeps each item's comments with it; otherwise by position.
function findMatch(old: unknown[], v: unknown, i: number, used: Set<unknown>): unknown {
  if (isPlainObject(v)) {
    const key = IDENTITY_KEYS.find((k) => typeof v[k] === 'string');
    if (key) {
      return old.find((n) => !used.has(n) && isMap(n) && n.items.some((p) => keyOf(p.key) === key && isScalar(p.value) && p.value.value === v[key]));
    }
  }
  const same = old[i];
  return same !== undefined && !used.has(same) ? same : undefined;
}
