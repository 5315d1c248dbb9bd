// The agent's own statements on both dialects: usage totals and the admin's report by UTC day,
// credit limits (set, replaced, removed, enforced), and which run of a chat is its latest.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { CreditLimitReached, creditLimits, setCreditLimit, usageByUserAndDay, usageTotals } from '../../src/agent/index.ts';
import { finishRunQuery, insertRun, insertUsageQuery, latestRun, type NewRunRow } from '../../src/agent/runs/event-log.ts';
import type { AgentStore } from '../../src/agent/runs/tables.ts';
import { checkCreditLimit } from '../../src/agent/usage/credit-limits.ts';
import type { Principal } from '../../src/auth/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const NOV_20 = Date.UTC(2026, 10, 20, 12);
const run = (id: string, userId: string, at: number, chatId = `chat-${id}`): NewRunRow => ({ id, org_id: 'o1', user_id: userId, chat_id: chatId, message_uuid: `m-${id}`, answer_uuid: `a-${id}`, environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: at });
const principal = (userId: string): Principal => ({ userId, email: `${userId}@example.com`, orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] });

/** A finished run with its usage: `queries` queries, `credits` credits. */
async function answered(x: AgentStore, r: NewRunRow, usage: { queries: number; credits: number; tokens?: number }) {
  await insertRun(x, r);
  const done = await x.batch([
    finishRunQuery(x, r.id, 'completed', 'ok', r.created_at + 1),
    insertUsageQuery(x, { run_id: r.id, org_id: r.org_id, user_id: r.user_id, provider: 'p', model: 'm', input_tokens: usage.tokens ?? 1000, output_tokens: 10, queries: usage.queries, credits: usage.credits, created_at: r.created_at + 1 }),
  ], { require: [0] });
  if (!done.ok) throw new Error('run not finished');
}

dialectTest('usage totals add an organization and a user, with credits rounded to 4 decimals', async (t, { x }) => {
  await answered(x, run('r1', 'u1', NOV_20), { queries: 2, credits: 0.12345 });
  await answered(x, run('r2', 'u1', NOV_20 + 5), { queries: 1, credits: 1 });
  await answered(x, run('r3', 'u2', NOV_20 + 9), { queries: 0, credits: 2 });
  t.deepEqual(await usageTotals(x, { orgId: 'o1', userId: 'u1' }), { runs: 2, input_tokens: 2000, output_tokens: 20, queries: 3, credits: 1.1235 });
  t.like(await usageTotals(x, { orgId: 'o1' }), { runs: 3, queries: 3, credits: 3.1235 });
  t.like(await usageTotals(x, { orgId: 'o1', since: NOV_20 + 8 }), { runs: 1, credits: 2 });
  t.deepEqual(await usageTotals(x, { orgId: 'other' }), { runs: 0, input_tokens: 0, output_tokens: 0, queries: 0, credits: 0 });
});

dialectTest('the usage report groups questions and costs by UTC day and user, in order', async (t, { x }) => {
  const midnight = Date.UTC(2026, 10, 21);
  await answered(x, run('r1', 'u2', midnight - 10), { queries: 1, credits: 0.5 });
  await answered(x, run('r2', 'u1', midnight - 5), { queries: 2, credits: 1.25 });
  await answered(x, run('r3', 'u1', midnight - 3), { queries: 1, credits: 1 });
  // Asked before midnight, answered after: the question counts on the 20th, its cost on the 21st.
  await answered(x, run('r4', 'u1', midnight - 1), { queries: 1, credits: 1 });
  await insertRun(x, run('r5', 'u1', midnight + 100));
  const days = await usageByUserAndDay({ store: x }, { orgId: 'o1', from: midnight - 86_400_000, to: midnight + 86_400_000 });
  t.deepEqual(days, [
    { day: '2026-11-20', user_id: 'u1', questions: 3, queries: 3, input_tokens: 2000, output_tokens: 20, credits: 2.25 },
    { day: '2026-11-20', user_id: 'u2', questions: 1, queries: 1, input_tokens: 1000, output_tokens: 10, credits: 0.5 },
    { day: '2026-11-21', user_id: 'u1', questions: 1, queries: 1, input_tokens: 1000, output_tokens: 10, credits: 1 },
  ]);
  const one = await usageByUserAndDay({ store: x }, { orgId: 'o1', from: midnight - 86_400_000, to: midnight, userId: 'u2' });
  t.deepEqual(one.map((d) => [d.day, d.user_id, d.questions]), [['2026-11-20', 'u2', 1]]);
});

dialectTest('credit limits are set, replaced and removed, listed with this month’s use, and refuse a new answer once spent', async (t, { x }) => {
  const clock = new FakeClock(NOV_20);
  const deps = { store: x, clock };
  // Limits belong to an organization's row.
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 0)`);
  await answered(x, run('old', 'u1', Date.UTC(2026, 9, 31)), { queries: 1, credits: 5 });
  await answered(x, run('r1', 'u1', NOV_20 - 1000), { queries: 1, credits: 1.5 });
  await setCreditLimit(deps, { orgId: 'o1', userId: 'u1', monthlyCredits: 1, by: 'admin' });
  await setCreditLimit(deps, { orgId: 'o1', userId: 'u1', monthlyCredits: 2, by: 'admin' });
  await setCreditLimit(deps, { orgId: 'o1', userId: null, monthlyCredits: 10, by: 'admin' });
  t.deepEqual(await creditLimits(deps, 'o1'), [
    { user_id: null, monthly_credits: 10, used_this_month: 1.5 },
    { user_id: 'u1', monthly_credits: 2, used_this_month: 1.5 },
  ]);
  await t.notThrowsAsync(checkCreditLimit(x, principal('u1'), clock.now()));
  await answered(x, run('r2', 'u1', NOV_20 - 500), { queries: 1, credits: 0.5 });
  const refused = await t.throwsAsync(checkCreditLimit(x, principal('u1'), clock.now()));
  t.true(refused instanceof CreditLimitReached);
  await t.notThrowsAsync(checkCreditLimit(x, principal('u2'), clock.now()));
  await setCreditLimit(deps, { orgId: 'o1', userId: 'u1', monthlyCredits: null, by: 'admin' });
  await t.notThrowsAsync(checkCreditLimit(x, principal('u1'), clock.now()));
  t.deepEqual((await creditLimits(deps, 'o1')).map((l) => l.user_id), [null]);
});

dialectTest(
  'credit limits are listed by the bytes of their user ids, the organization first, whatever the collation of the database',
  async (t, { x }) => {
    await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 0)`);
    const deps = { store: x, clock: new FakeClock(NOV_20) };
    for (const userId of ['b-user', null, 'B-user', 'a-user']) await setCreditLimit(deps, { orgId: 'o1', userId, monthlyCredits: 1, by: 'admin' });
    t.deepEqual((await creditLimits(deps, 'o1')).map((l) => l.user_id), [null, 'B-user', 'a-user', 'b-user']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('the latest run of a chat is the one started last, and among runs started in one millisecond the running one', async (t, { x }) => {
  await answered(x, run('first', 'u1', NOV_20, 'c1'), { queries: 0, credits: 0 });
  await answered(x, run('second', 'u1', NOV_20 + 1, 'c1'), { queries: 0, credits: 0 });
  t.is((await latestRun(x, 'o1', 'c1'))?.id, 'second');
  await insertRun(x, run('third', 'u1', NOV_20 + 1, 'c1'));
  t.is((await latestRun(x, 'o1', 'c1'))?.id, 'third');
  t.is(await latestRun(x, 'o2', 'c1'), undefined);
});

dialectTest('two admins setting one limit at once through two connections leave one limit, neither failing', async (t, { x, other }) => {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 0)`);
  const clock = new FakeClock(NOV_20);
  await Promise.all([3, 4, 5, 6].map((n) => setCreditLimit({ store: n % 2 ? x : other, clock }, { orgId: 'o1', userId: 'u1', monthlyCredits: n, by: `admin-${n}` })));
  const limits = await creditLimits({ store: x, clock }, 'o1');
  t.is(limits.length, 1);
  t.true([3, 4, 5, 6].includes(limits[0]!.monthly_credits));
});
