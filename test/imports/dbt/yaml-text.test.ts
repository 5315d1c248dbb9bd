// The import's YAML writer: its text must stay byte for byte what earlier builds wrote, since an
// unchanged re-import recognises a file by its blob id without reading it.
import test from 'ava';
import { parse } from 'yaml';
import { yamlText } from '../../../src/imports/dbt/yaml-text.ts';

test('a document is written byte for byte as before: nested sequences, empty and undefined values, quoted scalars and keys', (t) => {
  const doc = {
    name: 'orders',
    description: 'Orders: one row each',
    active: true,
    skip: undefined,
    empty_map: {},
    empty_list: [],
    only_undefined: { a: undefined },
    columns: [
      { name: 'id', key: true, tags: ['pii', 'true'] },
      { name: 'status', accepted_values: ['placed', 'shipped'], meta: {} },
    ],
    nested: [[1, [2, 3]], [], {}, { a: undefined }, null, 'x #y'],
    'odd key': 1.5,
    dbt: { unique_id: 'model.p.orders', depends_on: ['model.p.a'] },
  };
  const text = yamlText(doc);
  t.is(
    text,
    'name: orders\ndescription: "Orders: one row each"\nactive: true\nempty_map: {}\nempty_list: []\nonly_undefined: {}\ncolumns:\n  - name: id\n    key: true\n    tags:\n      - pii\n      - "true"\n  - name: status\n    accepted_values:\n      - placed\n      - shipped\n    meta: {}\nnested:\n  - - 1\n    - - 2\n      - 3\n  - []\n  - {}\n  - {}\n  - null\n  - "x #y"\n"odd key": 1.5\ndbt:\n  unique_id: model.p.orders\n  depends_on:\n    - model.p.a\n',
  );
  t.deepEqual(parse(text), JSON.parse(JSON.stringify({ ...doc, only_undefined: {}, nested: [[1, [2, 3]], [], {}, {}, null, 'x #y'] })));
  t.is(yamlText({}), '\n');
});
