// Over HTTP: a guessed-at account slows down only the guesser's address, unknown addresses answer the
// same, and an admin's unlock lets a throttled address in at once (issue 23).
import test from 'ava';
import type { TestApp } from '../../helpers/app.ts';
import { PASSWORD, passwordUser, startAuthApp } from '../../helpers/auth.ts';
import { call as callAs } from '../tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

async function signIn(email: string, password: string, ip: string) {
  const res = await t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ email, password }) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

test('a known and an unknown address get the same answers while guessed at', async (t) => {
  const user = await passwordUser(t0);
  const answers = async (email: string, ip: string) => {
    const out: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await signIn(email, `wrong-${i}-password`, ip);
      out.push(`${r.status} ${r.body['code'] as string} ${r.retryAfter ?? ''}`);
    }
    return out;
  };
  t.deepEqual(await answers(user.email, '10.7.0.1'), await answers('nobody-here@example.com', '10.7.0.2'));
});

test("an admin's unlock lets a throttled address sign in at once; the route is audited and admin-only", async (t) => {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const user = await passwordUser(t0, { orgId });
  for (let i = 0; i < 6; i++) await signIn(user.email, `wrong-${i}-password`, '10.8.0.1');
  const throttled = await signIn(user.email, PASSWORD, '10.8.0.1');
  t.is(throttled.status, 429);
  t.true(Number(throttled.retryAfter) >= 1);
  t.is((await callAs(t0, 'POST', `/api/admin/members/${user.id}/unlock`, { session: t0.session(user) })).status, 403);
  const unlocked = await callAs(t0, 'POST', `/api/admin/members/${user.id}/unlock`, { session: t0.session(admin) });
  t.is(unlocked.status, 200);
  t.true((unlocked.body['cleared'] as number) >= 2);
  t.is((await signIn(user.email, PASSWORD, '10.8.0.1')).status, 200);
  const entries = t0.app.services.store.sqlite!.prepare("SELECT actor_id, outcome FROM audit_log WHERE action = 'member_unlocked' AND user_id = ? ORDER BY id").all(user.id);
  // The member's own refused attempt is a failure entry; the admin's unlock the success.
  t.deepEqual(entries, [{ actor_id: user.id, outcome: 'failure' }, { actor_id: admin.id, outcome: 'success' }]);
});
