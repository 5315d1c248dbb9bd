import test from 'ava';
import { scryptHash } from '../helpers/legacy-hash.ts';
import { startAuthApp } from '../helpers/auth.ts';
import type { TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

const signIn = (email: string, password: string) =>
  t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
const storedHash = (id: string) => t0.app.services.store.sqlite!.prepare('SELECT password_hash FROM users WHERE id = ?').pluck().get(id) as string;

test.serial('a user with a hash of the earlier format signs in, the stored hash becomes bcrypt, and the next sign-in still works', async (t) => {
  const user = t0.user({ passwordHash: scryptHash('an old password') });
  t.is((await signIn(user.email, 'an old password')).status, 200);
  t.regex(storedHash(user.id), /^\$2b\$04\$/);
  t.is((await signIn(user.email, 'an old password')).status, 200);
  t.is((await signIn(user.email, 'another password')).status, 401);
});

test.serial('a wrong password against an old hash leaves it as it is', async (t) => {
  const old = scryptHash('an old password');
  const user = t0.user({ passwordHash: old });
  t.is((await signIn(user.email, 'not it')).status, 401);
  t.is(storedHash(user.id), old);
});
