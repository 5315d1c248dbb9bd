import test from 'ava';
import { startAgentApp, type AgentTestApp } from '../helpers/agent-app.ts';
import { call } from '../helpers/auth.ts';
import { collectEvents } from '../helpers/sse.ts';

// The offline model asks one query per answer: one credit each.
let t0: AgentTestApp;
test.before(async () => {
  t0 = await startAgentApp({ SEXTANT_CREDITS_PER_QUERY: '1', SEXTANT_CREDITS_PER_1K_INPUT_TOKENS: '0', SEXTANT_CREDITS_PER_1K_OUTPUT_TOKENS: '0' });
  t0.clock.set(Date.UTC(2026, 10, 20, 12));
});
test.after.always(() => t0.stop());

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, session: t0.session(admin), member: t0.user({ orgId }), other: t0.user({ orgId }) };
}
const ask = (user: Parameters<AgentTestApp['post']>[1], chat: string) => t0.post('/api/agentic', user, { chat_id: chat, messages: [{ role: 'user', content: 'How many orders?' }] });

test.serial("a user's monthly limit stops their new answers with 429 CREDIT_LIMIT_REACHED until next month; others still ask", async (t) => {
  const { session, member, other } = team();
  t.is((await call(t0, 'PUT', `/api/admin/credit-limits/users/${member.id}`, { monthly_credits: 1 }, session)).status, 204);
  const first = await ask(member, 'l-1');
  t.is(first.status, 200);
  t.is(((await first.json()) as { credits: number }).credits, 1);
  const refused = await ask(member, 'l-2');
  t.is(refused.status, 429);
  t.is(((await refused.json()) as { code: string }).code, 'CREDIT_LIMIT_REACHED');
  // Retry-After points at 1 December 2026, 00:00 UTC.
  t.is(Number(refused.headers.get('retry-after')), (Date.UTC(2026, 11, 1) - t0.clock.now()) / 1000);
  t.is((await ask(other, 'l-3')).status, 200);
  const limits = await call(t0, 'GET', '/api/admin/credit-limits', undefined, session);
  t.deepEqual(limits.body['limits'], [{ user_id: member.id, monthly_credits: 1, used_this_month: 1 }]);
  // Removing the limit lets the member ask again.
  t.is((await call(t0, 'PUT', `/api/admin/credit-limits/users/${member.id}`, { monthly_credits: null }, session)).status, 204);
  t.is((await ask(member, 'l-4')).status, 200);
});

test.serial("the organization's limit stops everyone's new answers, and a new month starts afresh", async (t) => {
  const { orgId, session, member, other } = team();
  t.is((await call(t0, 'PUT', '/api/admin/credit-limits/organization', { monthly_credits: 2 }, session)).status, 204);
  t.is((await ask(member, 'o-1')).status, 200);
  t.is((await ask(other, 'o-2')).status, 200);
  t.is((await ask(member, 'o-3')).status, 429);
  t.is((await ask(other, 'o-4')).status, 429);
  t0.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
  // A colleague signing in after the turn of the month (sessions of November have expired).
  t.is((await ask(t0.user({ orgId }), 'o-5')).status, 200);
  t0.clock.set(Date.UTC(2026, 10, 20, 12));
});

test.serial('a running answer is not cut when the limit is reached under it', async (t) => {
  const { session, member } = team();
  t0.hold();
  const res = await t0.post('/api/agentic/stream', member, { chat_id: 'run-1', message: 'How many orders by status?' });
  await t0.queryWaiting();
  t.is((await call(t0, 'PUT', '/api/admin/credit-limits/organization', { monthly_credits: 0 }, session)).status, 204);
  t0.release();
  const events = await collectEvents(res);
  t.is(events.at(-1)!.event, 'completed');
  t.is((await ask(member, 'run-2')).status, 429);
});

test.serial('admins read questions, queries, tokens and credits per user and per day', async (t) => {
  const { session, member, other } = team();
  await ask(member, 'u-1');
  await ask(member, 'u-2');
  t0.clock.advance(86_400_000);
  await ask(other, 'u-3');
  const res = await call(t0, 'GET', '/api/admin/usage?from=2026-11-20&to=2026-11-21', undefined, session);
  t.is(res.status, 200);
  const days = res.body['days'] as { day: string; user_id: string; questions: number; queries: number; credits: number }[];
  t.deepEqual(days.map((d) => [d.day, d.user_id === member.id ? 'member' : 'other', d.questions, d.queries, d.credits]), [
    ['2026-11-20', 'member', 2, 2, 2],
    ['2026-11-21', 'other', 1, 1, 1],
  ]);
  const one = await call(t0, 'GET', `/api/admin/usage?from=2026-11-20&to=2026-11-21&user_id=${other.id}`, undefined, session);
  t.is((one.body['days'] as unknown[]).length, 1);
  t0.clock.set(Date.UTC(2026, 10, 20, 12));
});

test('usage and limits: 401, 403 for members, 422 for bad input, 404 for a user of another organization', async (t) => {
  const { session, member } = team();
  const stranger = team().member;
  t.is((await call(t0, 'GET', '/api/admin/usage')).status, 401);
  t.is((await call(t0, 'PUT', '/api/admin/credit-limits/organization', { monthly_credits: 1 })).status, 401);
  const memberSession = t0.session(member);
  for (const [method, path, body] of [['GET', '/api/admin/usage', undefined], ['GET', '/api/admin/credit-limits', undefined], ['PUT', '/api/admin/credit-limits/organization', { monthly_credits: 5 }], ['PUT', `/api/admin/credit-limits/users/${member.id}`, { monthly_credits: 5 }]] as const) {
    t.is((await call(t0, method, path, body, memberSession)).status, 403, path);
  }
  for (const q of ['from=2026-12-01&to=2026-11-01', 'from=2020-01-01&to=2026-01-01', 'from=someday']) {
    const res = await call(t0, 'GET', `/api/admin/usage?${q}`, undefined, session);
    t.is(res.status, 422, q);
    t.true(Array.isArray(res.body.detail));
  }
  for (const body of [{ monthly_credits: -1 }, { monthly_credits: '5' }, {}, { monthly_credits: 1, extra: true }]) {
    t.is((await call(t0, 'PUT', '/api/admin/credit-limits/organization', body, session)).status, 422);
  }
  const res = await call(t0, 'PUT', `/api/admin/credit-limits/users/${stranger.id}`, { monthly_credits: 1 }, session);
  t.is(res.status, 404);
  t.is(res.body.code, 'USER_NOT_FOUND');
});

test('limit changes are audited and readable only in their organization', async (t) => {
  const a = team();
  const b = team();
  await call(t0, 'PUT', `/api/admin/credit-limits/users/${a.member.id}`, { monthly_credits: 3 }, a.session);
  const own = await call(t0, 'GET', '/api/admin/audit?action=credit_limit_changed', undefined, a.session);
  t.like((own.body['entries'] as unknown[])[0], { actor_id: a.admin.id, target_type: 'user', target_id: a.member.id, outcome: 'success' });
  const theirs = await call(t0, 'GET', `/api/admin/audit?action=credit_limit_changed&actor_id=${a.admin.id}`, undefined, b.session);
  t.deepEqual(theirs.body['entries'], []);
  t.deepEqual((await call(t0, 'GET', '/api/admin/credit-limits', undefined, b.session)).body['limits'], []);
});
