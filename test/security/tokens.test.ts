import test from 'ava';
import { newId } from '../../src/security/index.ts';

test('identifiers are URL-safe, of the asked size, and distinct across refills of the random pool', (t) => {
  const ids = new Set<string>();
  // 1000 ids of 12 bytes draw the 4 KiB pool about three times over.
  for (let i = 0; i < 1000; i++) ids.add(newId());
  t.is(ids.size, 1000);
  for (const id of ids) t.regex(id, /^[A-Za-z0-9_-]{16}$/);
  t.regex(newId(8), /^[A-Za-z0-9_-]{11}$/);
  t.regex(newId(16), /^[A-Za-z0-9_-]{22}$/);
});

test('no identifier starts with a dash, which a command line would read as an option', (t) => {
  // One draw in 64 would; 20,000 draws make a miss (about 312 expected) impossible to pass unseen.
  const dashed = Array.from({ length: 20_000 }, () => newId()).filter((id) => id.startsWith('-'));
  t.deepEqual(dashed, []);
});
