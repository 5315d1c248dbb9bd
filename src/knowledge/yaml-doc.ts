// YAML through the `yaml` package's Document API: an update changes only the nodes whose values
// changed, so comments, key order and formatting people wrote stay where they were.
import { Document, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';

/** Parses YAML text; `error` is set when the text is not valid YAML. */
export function parseYaml(text: string): { value: unknown; error?: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) return { value: undefined, error: doc.errors[0]!.message };
  return { value: doc.toJS() };
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
  doc.contents = mergeNode(doc, doc.contents, value) as typeof doc.contents;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keyOf = (k: unknown): string => String(isScalar(k) ? k.value : k);
const IDENTITY_KEYS = ['name', 'id', 'question', 'filter'];

function mergeNode(doc: Document, node: unknown, value: unknown): Node {
  if (isPlainObject(value) && isMap(node)) {
    for (const pair of [...node.items]) if (!(keyOf(pair.key) in value)) node.delete(pair.key);
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const pair = node.items.find((p) => keyOf(p.key) === k);
      if (pair) pair.value = mergeNode(doc, pair.value, v);
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
      return match !== undefined ? mergeNode(doc, match, v) : doc.createNode(v);
    });
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value !== value) node.value = value;
    return node;
  }
  return doc.createNode(value);
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
