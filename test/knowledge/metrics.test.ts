// Governed metrics and data coverage in table documentation: validated with the file and the field
// named, refreshed by sync without touching what people wrote, and read leniently by the data plane
// (a broken metric pushed through a mirror drops only itself).
import test from 'ava';
import { createFsFromVolume, Volume } from 'memfs';
import type { FsClient } from 'isomorphic-git';
import { createOrganization } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { ValidationFailed } from '../../src/errors.ts';
import { commitChanges } from '../../src/git/index.ts';
import { createTableDocsSource } from '../../src/compose/table-docs-source.ts';
import { createKnowledgeDeps, mergeSynced, parseYaml, scopeFor, validateItem } from '../../src/knowledge/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';

const ORDERS = {
  connection: 'wh',
  schema: 'main',
  name: 'orders',
  columns: [
    { name: 'order_date', type: 'DATE' },
    { name: 'status', type: 'VARCHAR' },
    { name: 'total_amount', type: 'DECIMAL(12,2)' },
  ],
  metrics: [
    { name: 'revenue', description: 'Completed orders', synonyms: ['sales'], expression: 'SUM(total_amount)', filter: "status IN ('completed')", time_column: 'order_date', format: 'USD' },
    { name: 'units', description: 'Units', expression: 'SUM(quantity)', time_column: 'orders.order_date', format: 'integer' },
  ],
  coverage: { column: 'order_date', first: '2022-01-01', last: '2026-10-31' },
  row_filters: [{ filter: 'country = {{user.country}}' }],
};

const withMetric = (patch: Record<string, unknown>) => ({ ...ORDERS, metrics: [{ ...ORDERS.metrics[0]!, ...patch }] });

test('a table with metrics and a coverage passes, keeping keys people added', (t) => {
  const out = validateItem('tables', 'wh/main.orders', { ...ORDERS, metrics: [{ ...ORDERS.metrics[0]!, x_owner: 'finance' }] });
  t.is((out['metrics'] as Record<string, unknown>[])[0]!['x_owner'], 'finance');
});

const broken: [string, Record<string, unknown>, (string | number)[]][] = [
  ['a name that is not an identifier', withMetric({ name: 'Net Revenue!' }), ['body', 'metrics', 0, 'name']],
  ['no description', withMetric({ description: undefined }), ['body', 'metrics', 0, 'description']],
  ['an expression that does not aggregate', withMetric({ expression: 'total_amount' }), ['body', 'metrics', 0, 'expression']],
  ['an expression holding a query', withMetric({ expression: 'SUM((SELECT max(x) FROM secrets))' }), ['body', 'metrics', 0, 'expression']],
  ['an expression with a second statement', withMetric({ expression: 'SUM(total_amount); DROP TABLE orders' }), ['body', 'metrics', 0, 'expression']],
  ['an expression hiding a comment', withMetric({ expression: 'SUM(total_amount) -- x' }), ['body', 'metrics', 0, 'expression']],
  ['an unbalanced expression', withMetric({ expression: 'SUM(total_amount' }), ['body', 'metrics', 0, 'expression']],
  ['a filter that aggregates', withMetric({ filter: 'SUM(total_amount) > 0' }), ['body', 'metrics', 0, 'filter']],
  ['a filter with an open quote', withMetric({ filter: "status = 'completed" }), ['body', 'metrics', 0, 'filter']],
  ['a time column that is not documented', withMetric({ time_column: 'shipped_at' }), ['body', 'metrics', 0, 'time_column']],
  ['a time column that is not a name', withMetric({ time_column: 'order_date; x' }), ['body', 'metrics', 0, 'time_column']],
  ['an unknown format', withMetric({ format: 'dollars' }), ['body', 'metrics', 0, 'format']],
  ['two metrics of one name', { ...ORDERS, metrics: [ORDERS.metrics[0]!, ORDERS.metrics[0]!] }, ['body', 'metrics', 1, 'name']],
  ['a coverage ending before it starts', { ...ORDERS, coverage: { first: '2026-01-01', last: '2025-01-01' } }, ['body', 'coverage', 'last']],
  ['a coverage date that is not a day', { ...ORDERS, coverage: { first: 'last year', last: '2025-01-01' } }, ['body', 'coverage', 'first']],
  ['a coverage of an undocumented column', { ...ORDERS, coverage: { column: 'shipped_at', first: '2022-01-01', last: '2025-01-01' } }, ['body', 'coverage', 'column']],
];

for (const [what, data, loc] of broken) {
  test(`a table with ${what} is refused, naming the file and the field`, (t) => {
    const err = t.throws(() => validateItem('tables', 'wh/main.orders', data), { instanceOf: ValidationFailed })!;
    t.true(err.issues.some((i) => JSON.stringify(i.loc) === JSON.stringify(loc)), JSON.stringify(err.issues));
    t.is((err.issues[0] as unknown as { file: string }).file, 'tables/wh/main.orders.yaml');
  });
}

test('a sync writes the measured coverage, keeping the coverage column, the metrics and the comments', (t) => {
  const text = ['connection: wh', 'schema: main', 'name: orders', 'columns:', '  - name: order_date', '    type: DATE', 'metrics:', '  - name: order_count  # all statuses', '    description: Orders', '    expression: COUNT(*)', 'coverage:   # refreshed by sync', '  column: order_date', '  first: 2022-01-01', '  last: 2026-10-31', ''].join('\n');
  const out = mergeSynced(text, { connection: 'wh', schema: 'main', name: 'orders', columns: [{ name: 'order_date', type: 'DATE' }], coverage: { first: '2022-01-03', last: '2026-11-19' } });
  t.like(parseYaml(out).value, { coverage: { column: 'order_date', first: '2022-01-03', last: '2026-11-19' }, metrics: [{ name: 'order_count', expression: 'COUNT(*)' }] });
  t.regex(out, /# all statuses/);
  t.regex(out, /# refreshed by sync/);
  const untouched = mergeSynced(text, { connection: 'wh', schema: 'main', name: 'orders', columns: [{ name: 'order_date', type: 'DATE' }] });
  t.like(parseYaml(untouched).value, { coverage: { first: '2022-01-01', last: '2026-10-31' } });
});

test('a broken metric pushed around validation drops only itself: the table and its row filters stay', async (t) => {
  const clock = new FakeClock();
  const store = openStore({ file: ':memory:' });
  await createOrganization(sqliteExecutor(store.db), clock, { id: 'o1', name: 'O' });
  const fs = createFsFromVolume(new Volume()) as unknown as FsClient;
  const deps = createKnowledgeDeps({ store: sqliteExecutor(store.db), clock, log: createLogger('silent'), secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')), dataDir: '/data', fs });
  const scope = await scopeFor(deps, 'o1', undefined);
  const bad = { ...ORDERS, metrics: [ORDERS.metrics[0]!, { name: 'evil', description: 'x', expression: 'SUM(x) FROM secrets' }], coverage: { first: 'soon', last: '2025-01-01' } };
  await commitChanges({ repo: scope.repo, branch: scope.branch, author: { name: 'git', email: 'git@example.com', timestamp: 1 }, message: 'pushed', changes: async () => [{ path: 'tables/wh/main.orders.yaml', content: JSON.stringify(bad) }] });
  const [doc] = await createTableDocsSource(deps).listTables('o1', undefined);
  t.deepEqual(doc!.metrics.map((m) => m.name), ['revenue']);
  t.is(doc!.coverage, undefined);
  t.deepEqual(doc!.row_filters, ORDERS.row_filters);
});
