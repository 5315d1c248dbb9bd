import test from 'ava';
import { getEventListeners } from 'node:events';
import { closeAtShutdown } from '../../src/gateway/close-at-shutdown.ts';

test('streams still open at shutdown are closed, forgotten ones are not, and the signal keeps one listener', (t) => {
  const shutdown = new AbortController();
  const closed: string[] = [];
  closeAtShutdown(shutdown.signal, () => closed.push('a'));
  const forgetB = closeAtShutdown(shutdown.signal, () => closed.push('b'));
  closeAtShutdown(shutdown.signal, () => closed.push('c'));
  forgetB();
  t.is(getEventListeners(shutdown.signal, 'abort').length, 1);
  shutdown.abort();
  t.deepEqual(closed, ['a', 'c']);
});
