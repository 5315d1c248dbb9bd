import test from 'ava';
import { searchableData, searchItems, type Item } from '../../src/knowledge/index.ts';
import { KIND_DEFS } from '../../src/knowledge/kinds.ts';

const table = (name: string, description: string, active = true): Item => ({
  kind: 'tables',
  id: `wh/main.${name}`,
  path: `tables/wh/main.${name}.yaml`,
  data: { connection: 'wh', schema: 'main', name, description, active, columns: [{ name: 'id' }] },
  yaml: '',
  version: name,
});
const note = (id: string, body: string): Item => ({ kind: 'notes', id, path: `notes/${id}.yaml`, data: { title: id, body }, yaml: '', version: id });

/** The search as it was before the joined index: one `includes` per item and term. */
function reference(items: Item[], query: string, kinds?: Item['kind'][]) {
  const terms = query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((t) => t.length > 1);
  return items
    .flatMap((item) => {
      if (!item.data || (kinds && !kinds.includes(item.kind)) || (item.kind === 'tables' && item.data['active'] === false)) return [];
      const title = KIND_DEFS[item.kind].titleOf(item.data);
      const head = `${item.id} ${title}`.toLowerCase();
      const hay = JSON.stringify(searchableData(item.data)).toLowerCase();
      const score = terms.reduce((n, t) => n + (head.includes(t) ? 3 : 0) + (hay.includes(t) ? 1 : 0), 0);
      return score > 0 ? [{ path: item.path, score }] : [];
    })
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}

test('the word index scores every item as one search per item would, terms found inside words included', (t) => {
  const items: Item[] = [];
  for (let i = 0; i < 300; i++) items.push(i % 3 === 0 ? note(`note-${i}`, `orders of ${i % 7} revenue revenue`) : table(`t${i}`, `Revenue per ${['day', 'week', 'month'][i % 3]} for orders`, i % 11 !== 0));
  items.push({ kind: 'notes', id: 'broken', path: 'notes/broken.yaml', data: null, yaml: ':', version: 'b', error: 'bad' });
  for (const [query, kinds] of [['revenue', undefined], ['orders week', undefined], ['t1 id', ['tables']], ['note', ['notes']], ['nothing here', undefined], ['Ő', undefined], ['evenu', undefined], ['wh main t12', undefined], ['id', ['tables']], ['s_name', undefined]] as const) {
    const got = searchItems(items, query, { limit: 1000, ...(kinds ? { kinds: [...kinds] } : {}) }).map((h) => ({ path: h.path, score: h.score }));
    t.deepEqual(got, reference(items, query, kinds ? [...kinds] : undefined), query);
  }
});

test('a term is not matched across the end of one item and the start of the next', (t) => {
  const items = [note('first', 'ends with abc'), note('second', 'def starts here')];
  t.deepEqual(searchItems(items, 'abcdef'), []);
  t.deepEqual(searchItems(items, 'abc').map((h) => h.id), ['first']);
});

test('a term found many times in one item counts once for it', (t) => {
  const [hit] = searchItems([note('n', 'margin margin margin margin')], 'margin');
  t.is(hit!.score, 1);
});

test('a term no item holds is read as its nearest words, as the offline model reads a typo; a term found anywhere, or a short one, is not widened', (t) => {
  const items = [table('orders', 'One row per order; its revenue is the total of completed orders'), table('customers', 'Who buys, with their country'), note('churn', 'How we count churned accounts')];
  const paths = (query: string) => searchItems(items, query, { limit: 10 }).map((h) => h.path);
  // "revnue" is in no text: the items holding "revenue" (one edit away) are found.
  t.deepEqual(paths('revnue'), ['tables/wh/main.orders.yaml']);
  t.deepEqual(paths('revnue by contry'), ['tables/wh/main.customers.yaml', 'tables/wh/main.orders.yaml']);
  // Two swapped letters are one edit.
  t.deepEqual(paths('ordres'), ['tables/wh/main.orders.yaml']);
  // Found as written: not widened to its neighbours ("churn" is not read as "church").
  t.deepEqual(paths('churned'), ['notes/churn.yaml']);
  // Too short to read as a typo (one edit makes another word), and too far from anything.
  t.deepEqual(paths('ordr'), []);
  t.deepEqual(paths('zzzzzzzz'), []);
  // An item of a kind not searched holds the typo, and another word only it holds is nearer: neither counts.
  const evaluation: Item = { kind: 'evaluations', id: 'suite', path: 'evaluations/suite.yaml', data: { id: 'suite', questions: [{ question: 'Revnue by country', note: 'revnues' }] }, yaml: '', version: 'e' };
  const tables = searchItems([...items, evaluation], 'revnue', { kinds: ['tables', 'notes'] }).map((h) => h.path);
  t.deepEqual(tables, ['tables/wh/main.orders.yaml']);
});
