import test from 'ava';
import { createFsFromVolume, Volume } from 'memfs';
import type { FsClient } from 'isomorphic-git';
import { type Principal, organizationInsert, userInsert, membershipUpsert } from '../../src/auth/index.ts';
import { sqliteNow } from '../helpers/sqlite-now.ts';
import { FakeClock } from '../../src/clock.ts';
import { DEMO_KNOWLEDGE_DIR } from '../../src/compose/demo/seed-demo.ts';
import { commitChanges, readFile } from '../../src/git/index.ts';
import { createTableDocsSource } from '../../src/compose/table-docs-source.ts';
import {
  createEnvironment,
  createKnowledgeDeps,
  knowledgeAt,
  searchItems,
  mergeEnvironment,
  seedKnowledge,
  updateItem,
  type KnowledgeDeps,
} from '../../src/knowledge/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
import { changeOf } from '../../src/shared/derived-list.ts';

// The domain without HTTP: an in-memory database and an in-memory file system for the repositories.
function setup(fs = createFsFromVolume(new Volume())): { deps: KnowledgeDeps; admin: Principal; user: Principal } {
  const clock = new FakeClock();
  const store = openStore({ file: ':memory:' });
  sqliteNow(store.db, (x) => organizationInsert(x, clock, { id: 'demo', name: 'Demo' }));
  const mk = (email: string, role: Principal['role']): Principal => {
    const u = sqliteNow(store.db, (x) => userInsert(x, clock, { email, name: email.split('@')[0]! }))[0]!;
    sqliteNow(store.db, (x) => membershipUpsert(x, clock, { userId: u.id, orgId: 'demo', role, permissions: role === 'admin' ? ['merge_to_production'] : [] }));
    return { userId: u.id, email, orgId: 'demo', baseOrgId: 'demo', role, permissions: role === 'admin' ? ['merge_to_production'] : [], credential: 'session', scopes: [] };
  };
  const deps = createKnowledgeDeps({
    store: sqliteExecutor(store.db),
    clock,
    log: createLogger('silent'),
    secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')),
    dataDir: '/data',
    fs: fs as unknown as FsClient,
  });
  return { deps, admin: mk('ada@example.com', 'admin'), user: mk('ana@example.com', 'user') };
}

const author = { name: 'Seed', email: 'seed@example.com', timestamp: 1 };

test('the demo knowledge seeds once as the first commit and lists four documented tables', async (t) => {
  const { deps } = setup();
  t.true(await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author }));
  t.false(await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author }));
  const tables = await createTableDocsSource(deps).listTables('demo', undefined);
  t.deepEqual(tables.map((d) => d.name).sort(), ['customers', 'order_items', 'orders', 'products']);
  const orders = tables.find((d) => d.name === 'orders')!;
  t.true(orders.active);
  t.deepEqual(orders.row_filters, []);
  t.deepEqual(orders.columns.find((c) => c.name === 'order_date')?.synonyms, ['purchase date', 'date of sale']);
  const repo = await deps.repos.repo('demo');
  t.truthy(await readFile({ repo, ref: 'main', path: 'README.md' }));
});

test('synced tables keep descriptions, synonyms, row filters, the active flag and comments', async (t) => {
  const { deps, admin } = setup();
  const repo = await deps.repos.repo('demo');
  await commitChanges({
    repo,
    branch: 'main',
    author,
    message: 'by hand',
    changes: [
      {
        path: 'tables/wh/main.orders.yaml',
        content: [
          '# curated by finance',
          'connection: wh',
          'schema: main',
          'name: orders',
          'description: Customer orders.',
          'active: false # hidden until reviewed',
          'columns:',
          '  - name: order_date',
          '    type: DATE',
          '    description: Day of the order.',
          '    synonyms: [purchase date]',
          '  - name: legacy_flag',
          '    type: BOOLEAN',
          'row_filters:',
          '  - filter: "country = {{user.country}}"',
          '    groups: [emea_sales]',
          '',
        ].join('\n'),
      },
    ],
  });
  const source = createTableDocsSource(deps);
  await source.writeSyncedTables(admin, undefined, [
    {
      connection: 'wh',
      schema: 'main',
      name: 'orders',
      description: 'warehouse comment',
      columns: [
        { name: 'order_date', type: 'TIMESTAMP', description: 'from warehouse' },
        { name: 'channel', type: 'VARCHAR' },
      ],
    },
    { connection: 'wh', schema: 'main', name: 'customers', columns: [{ name: 'id', type: 'INTEGER' }] },
  ]);
  const text = (await readFile({ repo, ref: 'main', path: 'tables/wh/main.orders.yaml' }))!;
  t.true(text.startsWith('# curated by finance\n'));
  t.true(text.includes('active: false # hidden until reviewed'));
  const [orders, customers] = ['orders', 'customers'].map((n) => (source.listTables('demo', undefined) as Promise<{ name: string }[]>).then((l) => l.find((d) => d.name === n)));
  const o = (await orders) as Awaited<ReturnType<typeof source.listTables>>[number];
  t.is(o.description, 'Customer orders.');
  t.false(o.active);
  t.deepEqual(o.columns, [
    { name: 'order_date', type: 'TIMESTAMP', description: 'Day of the order.', synonyms: ['purchase date'] },
    { name: 'channel', type: 'VARCHAR', synonyms: [] },
  ]);
  t.deepEqual(o.row_filters, [{ filter: 'country = {{user.country}}', groups: ['emea_sales'] }]);
  const c = (await customers) as Awaited<ReturnType<typeof source.listTables>>[number];
  t.true(c.active);
  t.deepEqual(c.columns, [{ name: 'id', type: 'INTEGER', synonyms: [] }]);
});

test('regular users cannot write synced tables', async (t) => {
  const { deps, user } = setup();
  await t.throwsAsync(createTableDocsSource(deps).writeSyncedTables(user, undefined, [{ connection: 'wh', schema: 'main', name: 'x', columns: [] }]), {
    code: 'KNOWLEDGE_READ_ONLY',
  });
});

test('knowledgeAt reads one commit, searches it, and follows environments; evaluations are promoted by merging', async (t) => {
  const { deps, admin } = setup();
  await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author });
  const prod = await knowledgeAt(deps, 'demo', undefined);
  t.regex(prod.commit!, /^[0-9a-f]{40}$/);
  t.is(prod.items.length, 12);
  const hits = prod.search('revenue by category');
  t.is(hits[0]?.path, 'reports/monthly-revenue-by-category.yaml');
  const dated = prod.search('purchase date', { kinds: ['tables'] });
  t.is(dated[0]?.id, 'demo_warehouse/main.orders');
  t.true(dated.every((h) => h.kind === 'tables'));

  const env = await createEnvironment(deps, admin, { name: 'Eval work', color: '#000' });
  await updateItem(deps, admin, env.id, 'evaluations', 'core-questions', {
    id: 'core-questions',
    name: 'Core business questions',
    questions: [{ id: 'products', question: 'How many products?', expected_answer: '200' }],
  });
  const inEnv = await knowledgeAt(deps, 'demo', env.id);
  t.not(inEnv.commit, prod.commit);
  const q = (s: typeof prod) => (s.items.find((i) => i.kind === 'evaluations')!.data!['questions'] as unknown[]).length;
  t.is(q(inEnv), 1);
  t.is(q(await knowledgeAt(deps, 'demo', undefined)), 14);
  await mergeEnvironment(deps, admin, env.id, { confirm: true });
  const after = await knowledgeAt(deps, 'demo', undefined);
  t.is(q(after), 1);
  // Files the service does not manage survive edits and merges untouched.
  t.truthy(await readFile({ repo: await deps.repos.repo('demo'), ref: 'main', path: 'README.md' }));
  t.is((await knowledgeAt(deps, 'demo', undefined)).items, after.items, 'snapshots of one commit are cached');
  await t.throwsAsync(knowledgeAt(deps, 'other', env.id), { code: 'ENVIRONMENT_NOT_FOUND' });
});

test('questions arriving together share one read of a commit; a read that failed is not kept', async (t) => {
  const fs = createFsFromVolume(new Volume());
  const { deps } = setup(fs);
  await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author });
  // A service started on the same repositories: nothing read or cached yet.
  const fresh = createKnowledgeDeps({ store: deps.store, clock: deps.clock, log: deps.log, secretBox: deps.secretBox, dataDir: '/data', fs: fs as unknown as FsClient });
  const objects = '/data/knowledge/demo.git/objects';
  fs.renameSync(objects, `${objects}-away`);
  await t.throwsAsync(knowledgeAt(fresh, 'demo', undefined));
  t.is(fresh.snapshotCache.size, 0, 'the failure is not remembered');
  fs.renameSync(`${objects}-away`, objects);
  const together = await Promise.all([1, 2, 3].map(() => knowledgeAt(fresh, 'demo', undefined)));
  t.is(together[0]!.items.length, 12);
  t.true(together.every((s) => s.items === together[0]!.items), 'one read, shared');
  t.is(fresh.snapshotCache.size, 1);
});

test('search leaves out inactive tables and files that no longer parse', async (t) => {
  const { searchItems } = await import('../../src/knowledge/index.ts');
  const items = [
    { kind: 'tables' as const, id: 'w/s.a', path: 'tables/w/s.a.yaml', data: { name: 'a', active: false, description: 'revenue' }, yaml: 'name: a\nactive: false\ndescription: revenue', version: 'v1' },
    { kind: 'tables' as const, id: 'w/s.b', path: 'tables/w/s.b.yaml', data: { name: 'b', description: 'revenue' }, yaml: 'name: b\ndescription: revenue', version: 'v2' },
    { kind: 'notes' as const, id: 'broken', path: 'notes/broken.yaml', data: null, yaml: 'revenue: [', version: 'v3', error: 'bad' },
  ];
  t.deepEqual(searchItems(items, 'revenue').map((h) => h.id), ['w/s.b']);
});

test('search never matches the text of row-access rules', (t) => {
  const item = {
    kind: 'tables' as const,
    id: 'wh/main.orders',
    path: 'tables/wh/main.orders.yaml',
    yaml: '',
    version: 'v1',
    data: { connection: 'wh', schema: 'main', name: 'orders', description: 'One row per order', columns: [], row_filters: [{ filter: "region = 'secret_region_x'" }] },
  };
  t.deepEqual(searchItems([item], 'secret_region_x'), []);
  t.is(searchItems([item], 'order').length, 1);
});

test('the first read after a commit reuses the unchanged items of the snapshot before and reads the changed ones', async (t) => {
  const { deps } = setup();
  await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author });
  const repo = await deps.repos.repo('demo');
  const before = await knowledgeAt(deps, 'demo', undefined);
  const orders = before.items.find((i) => i.path.endsWith('.orders.yaml'))!;
  const customers = before.items.find((i) => i.path.endsWith('.customers.yaml'))!;
  const products = before.items.find((i) => i.path.endsWith('.products.yaml'))!;
  await commitChanges({
    repo,
    branch: 'main',
    author,
    message: 'one change, one removal, one new table',
    changes: [
      { path: orders.path, content: orders.yaml.replace(/^description: .*$/m, 'description: Changed after the first read') },
      { path: products.path, content: null },
      { path: 'tables/wh/main.added.yaml', content: 'connection: wh\nschema: main\nname: added\ndescription: New\n' },
    ],
  });
  const after = await knowledgeAt(deps, 'demo', undefined);
  t.not(after.commit, before.commit);
  t.is(after.items.find((i) => i.path === customers.path), customers, 'an unchanged file is the same item');
  t.is(after.items.find((i) => i.path === orders.path)?.data?.['description'], 'Changed after the first read');
  t.is(after.items.find((i) => i.path === products.path), undefined);
  t.is(after.items.find((i) => i.path === 'tables/wh/main.added.yaml')?.data?.['name'], 'added');
  const tables = await createTableDocsSource(deps).listTables('demo', undefined);
  t.deepEqual(tables.map((d) => d.name).sort(), ['added', 'customers', 'order_items', 'orders']);
  t.is(tables.find((d) => d.name === 'orders')?.description, 'Changed after the first read');
  // The previous snapshot is untouched by the one after it.
  t.is(before.items.find((i) => i.path === orders.path), orders);
  t.not(orders.data?.['description'], 'Changed after the first read');
});

test('snapshots derived from the one before by the commits between equal a fresh read of every file, and so do their table docs', async (t) => {
  const fs = createFsFromVolume(new Volume());
  const { deps } = setup(fs);
  await seedKnowledge(deps, { orgId: 'demo', dir: DEMO_KNOWLEDGE_DIR, author });
  const repo = await deps.repos.repo('demo');
  const docs = createTableDocsSource(deps);
  let state = await knowledgeAt(deps, 'demo', undefined);
  await docs.listTables('demo', undefined);
  let n = 0;
  const table = (i: number, description = 'A table') => ({ path: `tables/wh/s${i % 3}.t${String(i).padStart(3, '0')}.yaml`, content: `connection: wh\nschema: s${i % 3}\nname: t${String(i).padStart(3, '0')}\ndescription: ${description}\n` });
  const rounds: { message: string; changes: { path: string; content: string | null }[] }[] = [
    { message: 'many tables at once (read whole)', changes: Array.from({ length: 250 }, (_, i) => table(i)) },
    { message: 'one table in the middle', changes: [table(1000)] },
    { message: 'a change, a removal, a note and a file that is no item', changes: [table(7, 'Changed'), { path: table(8).path, content: null }, { path: 'notes/n1.yaml', content: 'title: N1\nbody: x\n' }, { path: 'README.md', content: '# not knowledge\n' }] },
    { message: 'a broken file and an inactive table', changes: [{ path: table(9).path, content: 'name: [' }, { path: table(10).path, content: table(10).content + 'active: false\n' }] },
    { message: 'the first and the last table removed', changes: [{ path: table(0).path, content: null }, { path: table(1000).path, content: null }] },
  ];
  for (const round of rounds) {
    await commitChanges({ repo, branch: 'main', author, message: round.message, changes: round.changes });
    // Only every other snapshot has its table docs read: the next one is derived through it.
    const next = await knowledgeAt(deps, 'demo', undefined);
    const fresh = createKnowledgeDeps({ store: deps.store, clock: deps.clock, log: deps.log, secretBox: deps.secretBox, dataDir: '/data', fs: fs as unknown as FsClient });
    const whole = await knowledgeAt(fresh, 'demo', undefined);
    t.deepEqual(next.items, whole.items, round.message);
    t.is(changeOf(next.items) !== undefined, round.changes.length < 200, `${round.message}: derived from the snapshot before`);
    if (n++ % 2 === 1) t.deepEqual(await docs.listTables('demo', undefined), await createTableDocsSource(fresh).listTables('demo', undefined), round.message);
    t.deepEqual(next.search('changed table'), whole.search('changed table'));
    state = next;
  }
  t.deepEqual(await docs.listTables('demo', undefined), await createTableDocsSource(createKnowledgeDeps({ store: deps.store, clock: deps.clock, log: deps.log, secretBox: deps.secretBox, dataDir: '/data', fs: fs as unknown as FsClient })).listTables('demo', undefined));
  t.true(state.items.some((i) => i.path === 'notes/n1.yaml'));
});
