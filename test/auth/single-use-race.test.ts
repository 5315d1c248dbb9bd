// Issue 27's race at the store: 20 parallel consumptions of one TOTP code, one magic link and one
// device code, spread over two executors (on PostgreSQL two pools, standing for two replicas), have
// exactly one winner, in each of 100 trials. The same bodies run on SQLite.
import type { ExecutionContext } from 'ava';
import { consumeAccountToken, issueAccountTokenWrites } from '../../src/auth/account/account-tokens.ts';
import { consumeTotp } from '../../src/auth/mfa/totp.ts';
import type { SingleUseStore } from '../../src/auth/single-use-tables.ts';
import { pollCliLogin } from '../../src/auth/tokens/cli-login/poll-cli-login.ts';
import { FakeClock } from '../../src/clock.ts';
import { AppError } from '../../src/errors.ts';
import { dialectTest } from '../helpers/executors.ts';
import { approvedCliLogin, cliDeps, secretBox, seedUser, totpAt, totpHolder } from '../helpers/single-use.ts';

const TRIALS = 100;
const CONTENDERS = 20;
// Each PostgreSQL race holds 20 connections (two pools of 10): one race at a time keeps the file's
// share of the server's 100 connections at 21, whatever the file running beside it opens.
const ONE_AT_A_TIME = { serial: true };

/** Runs `attempt` CONTENDERS times at once, alternating the two executors; returns how many won. */
async function race(stores: [SingleUseStore, SingleUseStore], attempt: (x: SingleUseStore, i: number) => Promise<boolean>): Promise<number> {
  const outcomes = await Promise.all(Array.from({ length: CONTENDERS }, (_, i) => attempt(stores[i % 2]!, i)));
  return outcomes.filter(Boolean).length;
}

async function trials(t: ExecutionContext, run: (trial: number) => Promise<number>): Promise<void> {
  const started = performance.now();
  const winners: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) winners.push(await run(trial));
  t.log(`${TRIALS} trials of ${CONTENDERS} contenders in ${Math.round(performance.now() - started)} ms`);
  t.deepEqual(winners.filter((n) => n !== 1), [], 'trials without exactly one winner');
}

dialectTest('one TOTP code used 20 times at once over two replicas is accepted once, in 100 trials', async (t, { x, other }) => {
  const secret = await seedUser(x);
  const clock = new FakeClock(1_800_000_000_000);
  await trials(t, async () => {
    clock.advance(30_000);
    const code = totpAt(clock, secret);
    // Each request reads the user's last step, then spends the code's step: the reads may all be stale.
    return race([x, other], async (store) => consumeTotp({ store, clock, secretBox }, await totpHolder(store), code));
  });
}, ONE_AT_A_TIME);

dialectTest('one magic link used 20 times at once over two replicas, by its link or its code, signs in once, in 100 trials', async (t, { x, other }) => {
  await seedUser(x);
  const clock = new FakeClock();
  await trials(t, async (trial) => {
    const link = issueAccountTokenWrites(x, clock, { purpose: 'magic_link', userId: 'u1', ttlMs: 60_000, groupId: `g${trial}` });
    const code = issueAccountTokenWrites(x, clock, { purpose: 'magic_code', userId: 'u1', ttlMs: 60_000, groupId: `g${trial}`, value: `u1:${trial}` });
    await x.batch([...link.writes, ...code.writes]);
    return race([x, other], async (store, i) =>
      (i % 4 < 2 ? await consumeAccountToken(store, clock, 'magic_link', link.value) : await consumeAccountToken(store, clock, 'magic_code', code.value)) !== undefined,
    );
  });
}, ONE_AT_A_TIME);

dialectTest('one approved device code polled 20 times at once over two replicas hands its token over once, in 100 trials', async (t, { x, other }) => {
  await seedUser(x);
  const clock = new FakeClock();
  await trials(t, async () => {
    const { started } = await approvedCliLogin(x, clock);
    return race([x, other], async (store) => {
      try {
        return (await pollCliLogin(cliDeps(store, clock), started.code)).status === 'complete';
      } catch (err) {
        // The losers find the record gone, as a poll after the claim does.
        if (err instanceof AppError && err.code === 'CLI_LOGIN_NOT_FOUND') return false;
        throw err;
      }
    });
  });
}, ONE_AT_A_TIME);
