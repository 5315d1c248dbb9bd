// The profile stores give the same answers on SQLite and PostgreSQL: profile fields, memories (titles
// derived or the user's, order, edits racing) and dismissed disclaimers, each user's own only.
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import { dismissDisclaimer, dismissedDisclaimers, restoreDisclaimer } from '../../src/auth/profile/disclaimers.ts';
import { addMemory, deleteMemory, editMemory, listMemories } from '../../src/auth/profile/memories.ts';
import { getProfile, updateProfile } from '../../src/auth/profile/profile.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import type { Executor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const alice = { userId: 'alice', orgId: 'o1' } as Principal;
const bob = { userId: 'bob', orgId: 'o1' } as Principal;
const codeOf = (err: unknown) => (err instanceof AppError ? err.code : String(err));

async function seed(x: Executor): Promise<void> {
  for (const user of ['alice', 'bob']) await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES (${user}, ${`${user}@example.com`}, ${user}, 0)`);
}

dialectTest('a profile keeps omitted fields and lists its own memories only', async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock() };
  await addMemory(deps, bob, { content: "bob's note" });
  t.like(await updateProfile(deps, alice, { slack_title: 'Finance' }), { user_id: 'alice', name: 'alice', slack_title: 'Finance', memories: [] });
  t.like(await updateProfile(deps, alice, { name: 'Ada' }), { name: 'Ada', slack_title: 'Finance' });
  t.like(await getProfile(deps, bob), { name: 'bob', slack_title: '' });
  t.is(codeOf(await getProfile(deps, { userId: 'nobody' } as Principal).catch((e: unknown) => e)), 'NOT_FOUND');
});

dialectTest('memories: derived titles follow the content, a user title wins, oldest first', async (t, { x }) => {
  await seed(x);
  const clock = new FakeClock();
  const deps = { store: x, clock };
  const first = await addMemory(deps, alice, { content: 'Fiscal year starts in April\nso Q1 is Apr-Jun' });
  t.like(first, { title: 'Fiscal year starts in April', title_from_user: false });
  clock.advance(10);
  const titled = await addMemory(deps, alice, { content: 'x', title: ' Mine ' });
  t.like(titled, { title: 'Mine', title_from_user: true });
  t.like(await editMemory(deps, alice, first.memory_id, { content: 'Revenue is net of returns' }), { title: 'Revenue is net of returns', title_from_user: false });
  t.like(await editMemory(deps, alice, first.memory_id, { title: 'Revenue rule' }), { title: 'Revenue rule', title_from_user: true });
  t.like(await editMemory(deps, alice, first.memory_id, { content: 'Revenue excludes tax' }), { title: 'Revenue rule', content: 'Revenue excludes tax' });
  t.deepEqual((await listMemories(deps, alice)).map((m) => m.memory_id), [first.memory_id, titled.memory_id]);
});

dialectTest(
  'memories of one millisecond are listed by the bytes of their ids whatever the collation of the database',
  async (t, { x }) => {
    await seed(x);
    const deps = { store: x, clock: new FakeClock() };
    const made = [await addMemory(deps, alice, { content: 'one' }), await addMemory(deps, alice, { content: 'two' }), await addMemory(deps, alice, { content: 'three' })];
    // Ids chosen so that byte order (capitals first) and a linguistic order disagree.
    for (const [i, id] of ['b1', 'B2', 'a3'].entries()) await x.run(sql`UPDATE user_memories SET id = ${id} WHERE id = ${made[i]!.memory_id}`);
    t.deepEqual((await listMemories(deps, alice)).map((m) => m.memory_id), ['B2', 'a3', 'b1']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest("another user's memory is never read, edited or deleted", async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock() };
  const mine = await addMemory(deps, alice, { content: 'private' });
  t.is(codeOf(await editMemory(deps, bob, mine.memory_id, { content: 'mine now' }).catch((e: unknown) => e)), 'MEMORY_NOT_FOUND');
  t.is(codeOf(await deleteMemory(deps, bob, mine.memory_id).catch((e: unknown) => e)), 'MEMORY_NOT_FOUND');
  t.deepEqual(await listMemories(deps, bob), []);
  t.like((await listMemories(deps, alice))[0], { content: 'private' });
  await deleteMemory(deps, alice, mine.memory_id);
  t.is(codeOf(await deleteMemory(deps, alice, mine.memory_id).catch((e: unknown) => e)), 'MEMORY_NOT_FOUND');
});

dialectTest('concurrent edits of one memory each apply in full, none lost half-way', async (t, { x, other }) => {
  await seed(x);
  const clock = new FakeClock();
  const made = await addMemory({ store: x, clock }, alice, { content: 'start' });
  const edits = await Promise.all(
    [x, other, x, other].map((store, i) => editMemory({ store, clock }, alice, made.memory_id, i % 2 ? { title: `title ${i}` } : { content: `content ${i}` })),
  );
  t.is(edits.length, 4);
  const [final] = await listMemories({ store: x }, alice);
  t.true(final!.title_from_user, 'a user title set by any edit is kept by the content edits after it');
});

dialectTest('dismissing a disclaimer is idempotent and per user; restoring shows it again', async (t, { x }) => {
  await seed(x);
  const deps = { store: x, clock: new FakeClock() };
  await dismissDisclaimer(deps, alice, 'h1');
  await dismissDisclaimer(deps, alice, 'h1');
  await dismissDisclaimer(deps, bob, 'h2');
  t.deepEqual(await dismissedDisclaimers(deps, alice), { h1: true });
  await restoreDisclaimer(deps, bob, 'h1');
  t.deepEqual(await dismissedDisclaimers(deps, alice), { h1: true }, "bob's restore leaves alice's dismissal");
  await restoreDisclaimer(deps, alice, 'h1');
  t.deepEqual(await dismissedDisclaimers(deps, alice), {});
  t.deepEqual(await dismissedDisclaimers(deps, bob), { h2: true });
});
