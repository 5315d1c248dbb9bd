// The streaming reader of large artifacts: it keeps only the sections named, cuts each entry down as it
// is read, and refuses what is not JSON anywhere in the file, as JSON.parse would.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonSections } from '../../../src/imports/dbt/read-json-sections.ts';

const dir = mkdtempSync(join(tmpdir(), 'sextant-json-sections-'));
let n = 0;
function file(text: string): string {
  const path = join(dir, `${n++}.json`);
  writeFileSync(path, text);
  return path;
}

const nameOnly = (entry: unknown) => ({ name: (entry as { name?: unknown }).name });

test('keeps the named sections, whole or entry by entry, and skips the others', async (t) => {
  const text = JSON.stringify({
    macros: { m: { name: 'm', sql: 'x'.repeat(1000) } },
    metadata: { v: 1, list: [1, 'two', null, true, false, { a: [] }] },
    nodes: { 'model.p.a': { name: 'a', raw_code: 'select 1', nested: { deep: [[1]] } }, 'model.p.b': { name: 'b' } },
    child_map: { 'model.p.a': ['model.p.b'] },
    metrics: 3,
  });
  const sections = await readJsonSections(file(text), { metadata: 'whole', nodes: nameOnly, metrics: 'whole', exposures: 'whole' });
  t.deepEqual(sections, { metadata: { v: 1, list: [1, 'two', null, true, false, { a: [] }] }, nodes: { 'model.p.a': { name: 'a' }, 'model.p.b': { name: 'b' } }, metrics: 3 });
});

test('an entry-by-entry section that is no object is kept as it is, for the caller to refuse', async (t) => {
  t.deepEqual(await readJsonSections(file('{"nodes": [1, 2]}'), { nodes: nameOnly }), { nodes: [1, 2] });
});

test('a file whose value is no object gives undefined; a file that is not JSON, anywhere, is refused', async (t) => {
  t.is(await readJsonSections(file('[{"nodes": {}}]'), { nodes: 'whole' }), undefined);
  t.is(await readJsonSections(file('"text"'), { nodes: 'whole' }), undefined);
  await t.throwsAsync(readJsonSections(file('{ not json'), {}));
  await t.throwsAsync(readJsonSections(file('{"nodes": {"a": {"name": "a"}}'), { nodes: nameOnly }), undefined, 'cut short');
  await t.throwsAsync(readJsonSections(file('{"nodes": {}} trailing'), { nodes: nameOnly }), undefined, 'text after the value');
  await t.throwsAsync(readJsonSections(file('\u0000 binary'), {}));
  await t.throwsAsync(readJsonSections(file(''), {}));
});

test('a __proto__ key is an own property, as JSON.parse makes it, and a byte-order mark is read past', async (t) => {
  const sections = await readJsonSections(file('\uFEFF{"__proto__": {"polluted": true}, "nodes": {"__proto__": {"name": "p"}}}'), { nodes: nameOnly, ['__proto__']: 'whole' });
  t.is(Object.getPrototypeOf(sections), Object.prototype);
  t.deepEqual(Object.keys(sections!), ['__proto__', 'nodes']);
  const nodes = sections!['nodes'] as Record<string, unknown>;
  t.is(Object.getPrototypeOf(nodes), Object.prototype);
  t.deepEqual(Object.getOwnPropertyDescriptor(nodes, '__proto__')?.value, { name: 'p' });
  t.is(({} as { polluted?: boolean }).polluted, undefined);
});

test('a section not named is skipped even when its name is an Object.prototype property', async (t) => {
  t.deepEqual(await readJsonSections(file('{"toString": {"a": 1}, "constructor": [1], "nodes": {}}'), { nodes: nameOnly }), { nodes: {} });
});
