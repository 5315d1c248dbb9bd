// Knowledge files are parsed once per blob (a blob id names its text for good): items built again from
// the same blob are equal, each is a copy of its own, and a blob with other text is parsed anew.
import test from 'ava';
import { toItem } from '../../src/knowledge/items.ts';

const BLOB_A = 'a'.repeat(40);
const BLOB_B = 'b'.repeat(40);

test('an item built twice from the same blob is equal and changing one copy leaves the other alone', (t) => {
  const text = 'id: revenue\nname: Revenue\ntags: [finance]\n';
  const first = toItem('notes', 'revenue', 'notes/revenue.yaml', text, BLOB_A);
  (first.data!['tags'] as string[]).push('changed');
  first.data!['name'] = 'Changed';
  const second = toItem('notes', 'revenue', 'notes/revenue.yaml', text, BLOB_A);
  t.deepEqual(second.data, { id: 'revenue', name: 'Revenue', tags: ['finance'] });
  t.not(second.data, first.data);
});

test('another blob is parsed from its own text, and a file without a blob id is parsed every time', (t) => {
  t.deepEqual(toItem('notes', 'm', 'notes/m.yaml', 'name: One\n', BLOB_B).data, { name: 'One' });
  t.deepEqual(toItem('notes', 'm', 'notes/m.yaml', 'name: Two\n', BLOB_A.replace(/a/g, 'c')).data, { name: 'Two' });
  t.deepEqual(toItem('notes', 'm', 'notes/m.yaml', 'name: Three\n', '').data, { name: 'Three' });
  t.deepEqual(toItem('notes', 'm', 'notes/m.yaml', 'name: Four\n', '').data, { name: 'Four' });
  const broken = toItem('notes', 'm', 'notes/m.yaml', 'name: [unclosed\n', BLOB_A.replace(/a/g, 'd'));
  t.is(broken.data, null);
  t.truthy(broken.error);
});
