// The byte scanner under the streaming reader: whatever blocks the text arrives in, the values it
// hands over rebuild the document JSON.parse reads, and it refuses exactly the texts JSON.parse refuses.
import test from 'ava';
import { JsonSplitter, type JsonSplitHandler } from '../../../src/imports/dbt/split-json.ts';

/** A handler that puts the document back together from what the splitter hands over. */
function rebuilder(): JsonSplitHandler & { root: unknown } {
  const stack: (unknown[] | Record<string, unknown>)[] = [];
  const r = {
    root: undefined as unknown,
    put(value: unknown, key: string | undefined) {
      const top = stack[stack.length - 1];
      if (!top) r.root = value;
      else if (Array.isArray(top)) top.push(value);
      else Object.defineProperty(top, key!, { value, enumerable: true, writable: true, configurable: true });
    },
    open(array: boolean, key: string | undefined) {
      const into = array ? [] : {};
      r.put(into, key);
      stack.push(into);
    },
    value: (value: unknown, key: string | undefined) => r.put(value, key),
    close: () => void stack.pop(),
  };
  return r;
}

/** The document read from `blocks` at split depth `depth`, or the error thrown. */
function read(blocks: Buffer[], depth = 2): { value: unknown } | { error: unknown } {
  const r = rebuilder();
  const splitter = new JsonSplitter(depth, r);
  try {
    for (const b of blocks) splitter.write(b);
    splitter.end();
    return { value: r.root };
  } catch (error) {
    return { error };
  }
}

const verdictOf = (text: string) => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'refused';
  }
};
const described = (blocks: Buffer[]) => (blocks.length > 2 ? 'byte by byte' : `in blocks of ${blocks.map((b) => b.length).join('+')}`);
const verdict = (got: ReturnType<typeof read>) => ('value' in got ? got : 'refused');

/** Every way of cutting `bytes` in two, and byte by byte. */
function splits(bytes: Buffer): Buffer[][] {
  const out: Buffer[][] = [[bytes], [...bytes].map((b) => Buffer.from([b]))];
  for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return out;
}

const MANIFEST = JSON.stringify({
  metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', project_name: 'p' },
  nodes: {
    'model.p.quoted "name"': { name: 'a\\"b', description: 'a backslash \\ and a quote " and \\\\"', tags: ['}', ']', '{', '[', ',', ':'] },
    'model.p.unicode_é': { name: 'café 日本 𝄞', description: '\u0000\u001f\u2028 escaped \ud83d\ude00', meta: { 'clé': [1, -2.5e-3, true, false, null, {}, []] } },
    'model.p.empty': {},
  },
  sources: {},
  list: [1, 'two', [3, [4]], { five: { six: 6 } }],
  scalar: -0.5,
  nothing: null,
});

test('a document cut into blocks at any byte reads back as JSON.parse reads it, at each split depth', (t) => {
  const bytes = Buffer.from(`\uFEFF${MANIFEST}\n`);
  const expected = JSON.parse(MANIFEST) as unknown;
  for (const depth of [0, 1, 2, 3]) {
    for (const blocks of splits(bytes)) {
      const got = read(blocks, depth);
      if (!('value' in got)) return t.fail(`depth ${depth}, ${described(blocks)}: ${String(got.error)}`);
      t.deepEqual(got.value, expected);
    }
  }
});

test('a document cut short at any byte is refused, whatever the blocks', (t) => {
  const bytes = Buffer.from(MANIFEST);
  for (let end = 0; end < bytes.length; end++) {
    const cut = bytes.subarray(0, end);
    t.is(verdict(read([cut])), 'refused', `cut after ${end} bytes`);
    if (end > 1) t.is(verdict(read([cut.subarray(0, end >> 1), cut.subarray(end >> 1)])), 'refused', `cut after ${end} bytes, in two blocks`);
  }
});

const TEXTS = [
  // Accepted, as JSON.parse accepts them.
  '{}', '[]', ' {"a": 1} ', '"text"', '12', '-0.5e+3', 'true', 'null', '[[[]]]', '{"a": {"b": {"c": {}}}}', '{"a":"}"}',
  '{"a": ["\\\\"]}', '{"a\\u0022": "\\u00e9"}', '{"__proto__": {"x": 1}}', '{"a": 1, "a": 2}', '\t\r\n{}\n',
  // Refused: broken structure where the splitter checks it itself (above the split depth) or inside a value.
  '', ' ', '{', '}', '{"a"}', '{"a" 1}', '{"a":}', '{"a":1,}', '{,}', '{"a":1 "b":2}', '{1: 2}', '{a: 1}', "{'a': 1}",
  '[1,]', '[,1]', '[1 2]', '{"a": [1,]}', '{"a": {"b": 1,}}', '{"a": {"b" 1}}', '{"a": [}', '{"a": {]}', '{"a": "x}',
  '{"a": tru}', '{"a": nul}', '{"a": 01}', '{"a": 1.}', '{"a": +1}', '{"a": "\\x"}', '{"a": "tab\tin"}', '{"a": "\\u12"}',
  '{} x', '{}}', '{},', '{} {}', '[] []', '1 2', '"a" "b"', '{"a": 1}]', '\u0000', '{"a": 1} \u0000',
  '\uFEFF\uFEFF{}', ' \uFEFF{}',
];

test('it refuses exactly the texts JSON.parse refuses, whatever the blocks', (t) => {
  for (const text of TEXTS) {
    const expected = verdictOf(text);
    for (const blocks of splits(Buffer.from(text))) {
      t.deepEqual(verdict(read(blocks)), expected, `${JSON.stringify(text)} ${described(blocks)}`);
    }
  }
});

test('a byte-order mark is read past only whole and only at the start', (t) => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  t.deepEqual(read([bom, Buffer.from('{"a": 1}')]), { value: { a: 1 } });
  t.is(verdict(read([bom.subarray(0, 2), Buffer.from('{"a": 1}')])), 'refused');
  t.is(verdict(read([Buffer.from('{"a": 1}'), bom])), 'refused');
  t.is(verdict(read([bom])), 'refused');
});

test('a key that is __proto__ reaches the handler as a key, never as the prototype', (t) => {
  const got = read([Buffer.from('{"__proto__": {"polluted": true}, "s": {"__proto__": 1}}')]);
  if (!('value' in got)) return t.fail(String(got.error));
  const value = got.value as Record<string, unknown>;
  t.deepEqual(Object.keys(value), ['__proto__', 's']);
  t.is(Object.getPrototypeOf(value), Object.prototype);
  t.is(({} as { polluted?: boolean }).polluted, undefined);
});
