// The child process of crash.test.ts: it starts the way the service does (integrity check with repair,
// then seeding, which must never start production over), reports what production holds, then writes
// knowledge in bursts of parallel writers until it is killed. Every line on stdout is one JSON object;
// an `ack` line is printed only after the write returned, so the parent knows what was acknowledged.
import { join } from 'node:path';
import { createOrganization, createUser, getOrganization, setMembership, type Principal } from '../../src/auth/index.ts';
import { systemClock } from '../../src/clock.ts';
import {
  checkKnowledgeRepositories,
  createEnvironment,
  createItem,
  createKnowledgeDeps,
  listItems,
  mergeEnvironment,
  seedKnowledge,
  updateItem,
} from '../../src/knowledge/index.ts';
import { resolveRef } from '../../src/git/index.ts';
import { createLogger } from '../../src/log.ts';
import { createSecretBox } from '../../src/security/index.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';

const [dataDir, run, writersArg, fixtures] = process.argv.slice(2) as [string, string, string, string];
const WRITERS = Number(writersArg);
const out = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const store = openStore({ file: join(dataDir, 'sextant.db') });
const { db } = store;
if (!(await getOrganization(sqliteExecutor(db), 'crash'))) {
  await createOrganization(sqliteExecutor(db), systemClock, { id: 'crash', name: 'Crash' });
  const u = await createUser(sqliteExecutor(db), systemClock, { id: 'writer', email: 'writer@example.com', name: 'Writer' });
  await setMembership(sqliteExecutor(db), systemClock, { userId: u.id, orgId: 'crash', role: 'admin', permissions: ['merge_to_production'] });
}
const p: Principal = { userId: 'writer', email: 'writer@example.com', orgId: 'crash', baseOrgId: 'crash', role: 'admin', permissions: ['merge_to_production'], credential: 'session', scopes: [] };
const deps = createKnowledgeDeps({ store: sqliteExecutor(db), clock: systemClock, log: createLogger('silent'), secretBox: createSecretBox(Buffer.alloc(32, 3).toString('base64')), dataDir });

const checks = await checkKnowledgeRepositories(deps, { repair: true });
const seeded = await seedKnowledge(deps, { orgId: 'crash', dir: fixtures, author: { name: 'Seed', email: 'seed@example.com', timestamp: 1 } });
const notes = await listItems(deps, p, undefined, 'notes');
const repo = await deps.repos.repo('crash');
out({
  ready: true,
  seeded,
  main: await resolveRef({ repo, ref: 'main' }),
  refs: checks.flatMap((c) => c.report.refs.map((r) => ({ ref: r.ref, status: r.status }))),
  removed: checks.reduce((n, c) => n + c.report.removed.length, 0),
  tables: (await listItems(deps, p, undefined, 'tables')).items.length,
  notes: Object.fromEntries(notes.items.map((i) => [i.id, i.data?.['body']])),
});

// The shared note cycles through three contents, so the same blobs are written again and again.
const COUNTER = ['one', 'two', 'three'];
let seq = 0;
async function write(w: number): Promise<void> {
  const n = seq++;
  if (n % 5 === 4) {
    const body = COUNTER[n % 3]!;
    await updateItem(deps, p, undefined, 'notes', 'counter', { title: 'Counter', body }).catch(async () => createItem(deps, p, undefined, 'notes', { title: 'Counter', body }, 'counter'));
    return;
  }
  if (n % 23 === 22) {
    // An environment, a note in it and a merge into production (a merge commit by the writer).
    const env = await createEnvironment(deps, p, { name: `e${run}-${n}`, color: '#123456' });
    const id = `m-${run}-${n}`;
    await createItem(deps, p, env.id, 'notes', { title: id, body: `merged ${id}` }, id);
    await mergeEnvironment(deps, p, env.id, { confirm: true, delete_after: true });
    out({ ack: id, body: `merged ${id}` });
    return;
  }
  const id = `n-${run}-${n}-w${w}`;
  await createItem(deps, p, undefined, 'notes', { title: id, body: `body of ${id}` }, id);
  out({ ack: id, body: `body of ${id}` });
}

// Zero writers: only the start-up report (the parent's last check).
if (WRITERS === 0) {
  store.close();
  process.exit(0);
}
for (;;) await Promise.all(Array.from({ length: WRITERS }, (_, w) => write(w)));
