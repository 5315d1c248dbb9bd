import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ValidationFailed } from '../../src/errors.ts';
import { KIND_DEFS, KINDS, classifyPath, parseYaml, updateYaml, validateItem, type Kind } from '../../src/knowledge/index.ts';
import { DEMO_KNOWLEDGE_DIR } from '../../src/compose/demo/seed-demo.ts';

const valid: Record<Kind, { id: string; data: Record<string, unknown> }> = {
  tables: {
    id: 'wh/main.orders',
    data: {
      connection: 'wh',
      schema: 'main',
      name: 'orders',
      description: 'Orders',
      active: true,
      columns: [{ name: 'order_date', type: 'DATE', description: 'Day', synonyms: ['purchase date'] }],
      row_filters: [{ filter: 'country = {{user.country}}', groups: ['emea'], exempt_roles: ['admin'] }],
    },
  },
  notes: { id: 'fiscal-year', data: { title: 'Fiscal year', body: 'Starts in April', tags: ['dates'] } },
  relationships: {
    id: 'o-c',
    data: {
      id: 'o-c',
      from: { connection: 'wh', schema: 'main', table: 'orders', column: 'customer_id' },
      to: { connection: 'wh', schema: 'main', table: 'customers', column: 'customer_id' },
      kind: 'many_to_one',
      description: 'order to customer',
    },
  },
  reports: { id: 'rev', data: { title: 'Revenue', description: 'Monthly', sql: 'SELECT 1', connection: 'wh', chart: { type: 'bar' } } },
  skills: { id: 'cohorts', data: { name: 'cohorts', description: 'Cohorts', instructions: 'Do it' } },
  evaluations: { id: 'core', data: { id: 'core', name: 'Core', questions: [{ id: 'q1', question: 'How many?', expected_answer: '5', expected_sql: 'SELECT 5' }] } },
};

// One broken field per kind, and where the 422 must point.
const broken: Record<Kind, { patch: Record<string, unknown>; loc: (string | number)[] }> = {
  tables: { patch: { columns: [{ type: 'DATE' }] }, loc: ['body', 'columns', 0, 'name'] },
  notes: { patch: { title: 42 }, loc: ['body', 'title'] },
  relationships: { patch: { kind: 'many_to_many' }, loc: ['body', 'kind'] },
  reports: { patch: { sql: '' }, loc: ['body', 'sql'] },
  skills: { patch: { instructions: undefined }, loc: ['body', 'instructions'] },
  evaluations: { patch: { questions: [{ id: 'q1', question: 'q' }] }, loc: ['body', 'questions', 0, 'expected_answer'] },
};

for (const kind of KINDS) {
  // Evaluation suites refuse unknown fields (a misspelt tolerance must not fall back to the default).
  if (kind !== 'evaluations') {
    test(`a valid ${kind} item passes its schema and keeps unknown keys`, (t) => {
      const { id, data } = valid[kind];
      const out = validateItem(kind, id, { ...data, x_custom: 'kept' });
      t.is(out['x_custom'], 'kept');
    });
  }

  test(`an invalid ${kind} item fails naming the file and the field`, (t) => {
    const { id, data } = valid[kind];
    const err = t.throws(() => validateItem(kind, id, { ...data, ...broken[kind].patch }), { instanceOf: ValidationFailed })!;
    const issue = err.issues[0] as unknown as { loc: unknown[]; file: string };
    t.deepEqual(issue.loc, broken[kind].loc);
    t.is(issue.file, KIND_DEFS[kind].pathOf(id));
  });

  test(`the path of a ${kind} item maps back to its kind and id`, (t) => {
    const { id } = valid[kind];
    t.deepEqual(classifyPath(KIND_DEFS[kind].pathOf(id)), { kind, id });
  });
}

test('content naming another file than the one written is refused', (t) => {
  const err = t.throws(() => validateItem('skills', 'other', valid.skills.data), { instanceOf: ValidationFailed })!;
  t.deepEqual(err.issues[0]?.loc, ['body', 'name']);
  const err2 = t.throws(() => validateItem('tables', 'wh/main.customers', valid.tables.data), { instanceOf: ValidationFailed })!;
  t.is((err2.issues[0] as { file?: string }).file, 'tables/wh/main.customers.yaml');
});

test('files outside the managed layout are not classified', (t) => {
  for (const p of ['README.md', 'notes/a.txt', 'notes/sub/a.yaml', 'tables/main.orders.yaml', 'tables/wh/orders.yaml', 'other/x.yaml']) {
    t.is(classifyPath(p), undefined, p);
  }
});

test('an update keeps comments, key order and formatting of what did not change', (t) => {
  const text = [
    '# Orders table, documented by hand',
    'connection: wh',
    'schema: main',
    'name: orders',
    'description: One row per order. # short',
    'active: true            # inactive tables are hidden',
    'columns:',
    '  # the date column matters for fiscal reports',
    '  - name: order_date',
    '    type: DATE',
    '    description: Day the order was placed.',
    '    synonyms: [purchase date]',
    '  - name: status',
    '    type: VARCHAR',
    'x_owner: data-team # not managed, kept',
    '',
  ].join('\n');
  const value = parseYaml(text).value as Record<string, unknown>;
  const cols = value['columns'] as Record<string, unknown>[];
  const next = {
    ...value,
    description: 'One row per customer order.',
    columns: [cols[1]!, { ...cols[0]!, synonyms: ['purchase date', 'sale date'] }, { name: 'channel', type: 'VARCHAR' }],
  };
  const out = updateYaml(text, next);
  t.true(out.startsWith('# Orders table, documented by hand\nconnection: wh\nschema: main\nname: orders\n'));
  t.true(out.includes('description: One row per customer order. # short'));
  t.regex(out, /active: true +# inactive tables are hidden/);
  t.true(out.includes('# the date column matters for fiscal reports'));
  t.true(out.includes('synonyms: [purchase date, sale date]'));
  t.true(out.includes('x_owner: data-team # not managed, kept'));
  t.deepEqual(parseYaml(out).value, next);
  t.true(out.indexOf('name: status') < out.indexOf('name: order_date'));
});

test('a round trip of an unchanged value writes the same bytes', (t) => {
  const text = readFileSync(join(DEMO_KNOWLEDGE_DIR, 'tables/demo_warehouse/main.orders.yaml'), 'utf8');
  const out = updateYaml(text, parseYaml(text).value as Record<string, unknown>);
  t.is(out, text);
});

test('every demo fixture is a managed file that passes its schema', (t) => {
  const files = (readdirSync(DEMO_KNOWLEDGE_DIR, { recursive: true }) as string[]).filter((f) => f.endsWith('.yaml'));
  t.is(files.length, 12);
  for (const f of files) {
    const c = classifyPath(f.split(sep).join('/'));
    t.truthy(c, f);
    t.notThrows(() => validateItem(c!.kind, c!.id, parseYaml(readFileSync(join(DEMO_KNOWLEDGE_DIR, f), 'utf8')).value), f);
  }
});
