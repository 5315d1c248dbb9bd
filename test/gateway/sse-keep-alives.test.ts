import test from 'ava';
import { KeepAlives } from '../../src/gateway/sse.ts';

/** Resolves when `write` has been called `n` times. */
function counted(n: number): { write: () => void; done: Promise<void>; calls: () => number } {
  let calls = 0;
  let done!: () => void;
  const reached = new Promise<void>((resolve) => (done = resolve));
  return { write: () => ++calls === n && done(), done: reached, calls: () => calls };
}

test('open streams share one timer that stops with the last of them', async (t) => {
  const k = new KeepAlives(5);
  t.false(k.running);
  const a = counted(2);
  const b = counted(2);
  const stopA = k.add(a.write);
  const stopB = k.add(b.write);
  t.true(k.running);
  await Promise.all([a.done, b.done]);
  stopA();
  t.true(k.running, 'the other stream still gets its comments');
  const seenA = a.calls();
  // Two more ticks, seen by a stream added now.
  const c = counted(2);
  const stopC = k.add(c.write);
  await c.done;
  t.is(a.calls(), seenA, 'a stopped stream gets no more');
  t.true(b.calls() >= 3);
  stopB();
  stopC();
  t.false(k.running);
});

test('a stream whose write throws does not keep the others from theirs', async (t) => {
  const k = new KeepAlives(5);
  const ok = counted(3);
  const stopBroken = k.add(() => {
    throw new Error('socket gone');
  });
  const stopOk = k.add(ok.write);
  await ok.done;
  stopBroken();
  stopOk();
  t.false(k.running);
});
