import test from 'ava';
import { hashPassword, needsRehash, verifyPassword } from '../../src/security/index.ts';
import { scryptHash } from '../helpers/legacy-hash.ts';

test('new passwords are bcrypt hashes that verify and need no rehash', async (t) => {
  const stored = await hashPassword('correct horse', 4);
  t.regex(stored, /^\$2b\$04\$/);
  t.true(await verifyPassword('correct horse', stored));
  t.false(await verifyPassword('correct horsf', stored));
  t.false(needsRehash(stored, 4));
  t.true(needsRehash(stored, 5));
});

test('hashes of the earlier scrypt format still verify and are marked for a rehash', async (t) => {
  const old = scryptHash('correct horse');
  t.true(await verifyPassword('correct horse', old));
  t.false(await verifyPassword('wrong', old));
  t.true(needsRehash(old, 4));
});

test('every character of a long password counts (bcrypt alone would read only 72 bytes)', async (t) => {
  const long = 'x'.repeat(100);
  const stored = await hashPassword(long, 4);
  t.true(await verifyPassword(long, stored));
  t.false(await verifyPassword(`${'x'.repeat(99)}y`, stored));
});

test('malformed stored hashes never verify', async (t) => {
  for (const stored of ['', 'changed', 'scrypt$1$2', '$2b$04$short']) t.false(await verifyPassword('pw', stored));
});
