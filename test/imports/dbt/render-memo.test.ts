// The memo of what imports rendered and read in this process: it answers what it was told, and past its
// bound it lets the oldest entries go, so a long-running process holds a bounded amount.
import test from 'ava';
import { createRenderMemo } from '../../../src/imports/dbt/render-memo.ts';

const rendered = (n: number) => ({ path: `tables/wh/s.t${n}.yaml`, fingerprint: `f${n}`, oid: `o${n}` });

test('the memo answers what it was told, and past its bound the oldest entries go first', (t) => {
  const memo = createRenderMemo(3);
  for (const n of [1, 2, 3]) {
    memo.rememberRendered(`s${n}`, rendered(n));
    memo.rememberContent(`o${n}`, `f${n}`);
  }
  // Told again, an entry is the newest.
  memo.rememberRendered('s1', rendered(1));
  memo.rememberRendered('s4', rendered(4));
  memo.rememberContent('o4', 'f4');
  t.deepEqual(['s1', 's2', 's3', 's4'].map((s) => memo.rendered(s)?.oid), ['o1', undefined, 'o3', 'o4']);
  t.deepEqual(['o1', 'o2', 'o4'].map((o) => memo.contentFingerprint(o)), [undefined, 'f2', 'f4']);
});
