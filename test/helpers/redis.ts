// The local Redis (127.0.0.1:6379) for tests of what replicas share. Without it those tests are
// skipped with a message saying why, except under CI=true, where they must run.
import test, { type TestFn } from 'ava';
import { connect } from 'node:net';

export const REDIS_URL = 'redis://127.0.0.1:6379/0';

async function reachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(6379, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** `test` when Redis answers, else `test.skip` after saying why (or an error under CI=true). */
export async function redisTest(): Promise<TestFn> {
  if (await reachable()) return test;
  if (process.env['CI'] === 'true') throw new Error('Redis is not reachable at 127.0.0.1:6379: the tests of the shared bus must run in CI');
  console.warn('Skipping the tests of the shared bus: no Redis at 127.0.0.1:6379');
  return test.skip as unknown as TestFn;
}
