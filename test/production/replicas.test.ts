// Two replicas of the built server (`node dist/main.js`, the image's command) on one PostgreSQL
// database, one Redis and one data folder, started at once on the empty database: a streamed answer
// is resumed through the other replica; single-use credentials spent from both at once have exactly one
// winner; knowledge written through both while one is killed with kill -9 loses no acknowledged write.
import avaTest, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { generateSync } from 'otplib';
import pg from 'pg';
import { redisTest } from '../helpers/redis.ts';
import { call, signIn, twoReplicas, type Replica, type Replicas } from '../helpers/replicas.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { startTestSmtp } from '../helpers/smtp.ts';
import { collectEvents } from '../helpers/sse.ts';

const test = await redisTest();
const TRIALS = 100;
const RACERS = 20;
const ADMIN = { email: 'admin@demo.sextant.local', password: 'demo-admin-password' };
const MODELER = { email: 'modeler@demo.sextant.local', password: 'demo-modeler-password' };
const ANALYST = { email: 'analyst@demo.sextant.local', password: 'demo-analyst-password' };

/** Two replicas started at once, or a logged skip when PostgreSQL is absent (not under CI=true). */
async function replicas(t: ExecutionContext, env: Record<string, string> = {}) {
  t.timeout(300_000);
  const r = await twoReplicas(t, env);
  if (!r) t.log(SKIP_PG_STORE);
  return r;
}

// Starting a pair (a PostgreSQL database, two gateways seeding the demo, each signed in once) was the
// file's largest cost after its trials: the tests that neither change the pair's configuration nor
// kill a replica share one, started by the first of them on the empty database, in file order
// (serial), stopped after the file.
let sharedPair: ReturnType<typeof twoReplicas> | undefined;
const fileTeardowns: (() => unknown)[] = [];
avaTest.after.always(async () => {
  for (const teardown of fileTeardowns.reverse()) await teardown();
});

/** The pair the file's tests share (started by the first to ask), or a logged skip as `replicas`. */
async function sharedReplicas(t: ExecutionContext) {
  t.timeout(300_000);
  sharedPair ??= twoReplicas({ teardown: (fn) => void fileTeardowns.push(fn) });
  const r = await sharedPair;
  if (!r) t.log(SKIP_PG_STORE);
  return r;
}

/** A client of the test's database, closed at its end (fixture resets between trials). */
async function database(t: ExecutionContext, set: Replicas): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: set.databaseUrl });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}

/**
 * Forgets the test's rate-limit counters in Redis. The losers of a race are failed attempts, and 100
 * trials of 19 losers each would trip the brute-force limits that exist to stop exactly that; what is
 * under test here is the single use, so each trial starts with clean counters.
 */
async function forgetRateLimits(t: ExecutionContext, set: Replicas): Promise<() => Promise<void>> {
  const redis = new Redis(set.env['SEXTANT_REDIS_URL']!, { lazyConnect: true });
  await redis.connect();
  t.teardown(() => void redis.disconnect());
  return async () => {
    const keys = await redis.keys(`${set.redisPrefix}:rl*`);
    if (keys.length > 0) await redis.del(...keys);
  };
}

/** `RACERS` requests at once, alternating between the replicas; their statuses and bodies. */
function race(a: Replica, b: Replica, send: (base: string) => Promise<{ status: number; body: Record<string, unknown> }>) {
  return Promise.all(Array.from({ length: RACERS }, (_, i) => send(i % 2 === 0 ? a.url : b.url)));
}

/** Runs `trial` TRIALS times and checks that each had exactly one winner; logs the tally. */
async function trials(t: ExecutionContext, what: string, trial: (n: number) => Promise<number>) {
  const winners: number[] = [];
  for (let n = 0; n < TRIALS; n++) winners.push(await trial(n));
  const wrong = winners.map((w, n) => [n, w]).filter(([, w]) => w !== 1);
  t.deepEqual(wrong, [], `${what}: trials [index, winners] without exactly one winner`);
  t.log(`${what}: ${TRIALS} trials of ${RACERS} requests over two replicas, exactly one winner in each`);
}

test.serial('two replicas starting at once on an empty database seed the demo once and both serve it', async (t) => {
  const r = await sharedReplicas(t);
  if (!r) return t.pass();
  const db = await database(t, r.set);
  const users = await db.query<{ email: string }>(`SELECT email FROM users ORDER BY email`);
  t.deepEqual(users.rows.map((u) => u.email), [ADMIN.email, ANALYST.email, MODELER.email]);
  for (const replica of [r.a, r.b]) {
    t.is((await call(replica.url, 'GET', '/api/health')).status, 200);
    t.is((await call(replica.url, 'GET', '/api/ready')).status, 200);
  }
});

test.serial('a question streamed through A is resumed through B with Last-Event-ID: every event, none twice', async (t) => {
  const r = await sharedReplicas(t);
  if (!r) return t.pass();
  const token = await signIn(r.a.url, ANALYST.email, ANALYST.password);
  const headers = { authorization: `Bearer ${token}` };
  const asked = await fetch(`${r.a.url}/api/agentic/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: 'resume-1', message: 'total revenue by country in 2024' }),
  });
  t.is(asked.status, 200);
  // The client drops A after three events and comes back through B.
  const first = await collectEvents(asked, (_f, all) => all.length === 3);
  const resumed = await fetch(`${r.b.url}/api/agentic/subscribe/resume-1`, { headers: { ...headers, 'Last-Event-ID': String(first.at(-1)!.id) } });
  t.is(resumed.status, 200);
  const rest = await collectEvents(resumed);
  const all = [...first, ...rest];
  t.is(all.at(-1)?.event, 'completed');
  t.true(all.some((e) => e.event === 'sql'), all.map((e) => e.event).join(','));
  const ids = all.map((e) => e.id);
  t.deepEqual(ids, [...new Set(ids)].sort((x, y) => x! - y!), 'ids rise, none twice');
  // The whole run as the journal has it, read through A: the resumed client saw each event exactly once.
  const journal = await collectEvents(await fetch(`${r.a.url}/api/agentic/subscribe/resume-1`, { headers }));
  t.deepEqual(ids, journal.map((e) => e.id));
});

test.serial('one TOTP code spent 20 times at once over both replicas signs in exactly once, in each of 100 trials', async (t) => {
  const r = await sharedReplicas(t);
  if (!r) return t.pass();
  const db = await database(t, r.set);
  const forget = await forgetRateLimits(t, r.set);
  const session = await signIn(r.a.url, ANALYST.email, ANALYST.password);
  const setup = await call(r.a.url, 'POST', '/api/auth/mfa/setup', { token: session });
  const secret = String(setup.body['secret']);
  const codeNow = () => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });
  t.is((await call(r.b.url, 'POST', '/api/auth/mfa/confirm', { token: session, body: { code: codeNow() } })).status, 200);
  await trials(t, 'TOTP', async (n) => {
    // Each trial spends the current code afresh: the replay guard forgets the last step spent.
    await db.query(`UPDATE users SET totp_last_step = NULL WHERE email = $1`, [ANALYST.email]);
    await forget();
    const login = await call(n % 2 ? r.a.url : r.b.url, 'POST', '/api/auth/token', { body: { username: ANALYST.email, password: ANALYST.password } });
    const mfaToken = login.body['mfa_token'];
    if (typeof mfaToken !== 'string') throw new Error(`no pending MFA token: ${login.status} ${JSON.stringify(login.body)}`);
    const code = codeNow();
    const answers = await race(r.a, r.b, (base) => call(base, 'POST', '/api/auth/token/mfa', { body: { mfa_token: mfaToken, code } }));
    return answers.filter((x) => x.status === 200 && typeof x.body['access_token'] === 'string').length;
  });
});

test.serial('one magic link spent 20 times at once over both replicas signs in exactly once, in each of 100 trials', async (t) => {
  const smtp = await startTestSmtp();
  t.teardown(() => smtp.stop());
  const r = await replicas(t, { SEXTANT_SMTP_URL: smtp.url, SEXTANT_MAIL_PER_ADDRESS_PER_HOUR: '10000', SEXTANT_MAIL_PER_CLIENT_PER_HOUR: '1000000' });
  if (!r) return t.pass();
  const forget = await forgetRateLimits(t, r.set);
  await trials(t, 'magic link', async (n) => {
    await forget();
    const requested = await call(n % 2 ? r.a.url : r.b.url, 'POST', '/api/auth/magic_link/request', { body: { email: MODELER.email } });
    if (requested.status >= 300) throw new Error(`magic link request answered ${requested.status}`);
    const mail = await smtp.next(MODELER.email, /sign-in link/i);
    const token = /Magic link token: (\S+)/.exec(mail.text)?.[1];
    if (!token) throw new Error(`no token in the mail: ${mail.text}`);
    const answers = await race(r.a, r.b, (base) => call(base, 'POST', '/api/auth/magic_link/consume', { body: { token } }));
    return answers.filter((x) => x.status === 200).length;
  });
});

test.serial('one approved CLI device sign-in polled 20 times at once over both replicas hands its token out exactly once, in each of 100 trials', async (t) => {
  const r = await sharedReplicas(t);
  if (!r) return t.pass();
  const forget = await forgetRateLimits(t, r.set);
  const admin = await signIn(r.b.url, ADMIN.email, ADMIN.password);
  await trials(t, 'CLI device code', async (n) => {
    await forget();
    const [starter, approver] = n % 2 ? [r.a, r.b] : [r.b, r.a];
    const started = await call(starter.url, 'POST', '/api/auth/cli/login/start');
    const code = String(started.body['code']);
    const approved = await call(approver.url, 'POST', '/api/auth/cli/login/complete', { token: admin, body: { code } });
    if (approved.status !== 200) throw new Error(`approval answered ${approved.status}: ${JSON.stringify(approved.body)}`);
    const answers = await race(r.a, r.b, (base) => call(base, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`));
    return answers.filter((x) => x.status === 200 && typeof x.body['token'] === 'string').length;
  });
});

const WRITES = 500;
const KILL_AT = 150;
const WRITERS = 8;

/** Note `i` written through `base`: whether the replica acknowledged it (2xx). */
async function writeNote(base: string, token: string, i: number): Promise<boolean> {
  try {
    const res = await call(base, 'POST', '/api/knowledge/notes', { token, body: { title: `Replica note ${i}`, body: `written as number ${i}`, tags: ['replicas'] } });
    return res.status >= 200 && res.status < 300;
  } catch {
    // The killed replica's connections are refused or cut: not acknowledged.
    return false;
  }
}

test.serial('500 knowledge writes over both replicas while one is killed with kill -9: every acknowledged write is in git and fsck is clean', async (t) => {
  const r = await replicas(t);
  if (!r) return t.pass();
  const token = await signIn(r.a.url, ADMIN.email, ADMIN.password);
  let b: Replica = r.b;
  const acked = new Set<number>();
  const refusedByA: number[] = [];
  let next = 0;
  let restarted: Promise<void> | undefined;
  const writer = async () => {
    for (let i = next++; i < WRITES; i = next++) {
      if (i === KILL_AT) {
        // kill -9 while the writers keep going; the same command starts it again on the same folder.
        restarted = b.kill().then(async () => void (b = await r.set.start()));
      }
      const throughA = i % 2 === 0;
      const ok = await writeNote(throughA ? r.a.url : b.url, token, i);
      if (ok) acked.add(i);
      else if (throughA) refusedByA.push(i);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  await restarted;
  t.deepEqual(refusedByA, [], 'the surviving replica kept acknowledging');
  t.true(acked.size >= WRITES / 2, `${acked.size} acknowledged`);
  // The restarted replica serves the same knowledge.
  t.is((await call(b.url, 'GET', `/api/knowledge/notes/replica-note-${[...acked].at(-1)}`, { token })).status, 200);

  const gitdir = join(r.set.dataDir, 'knowledge', 'demo.git');
  const tree = spawnSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', 'main', 'notes/'], { encoding: 'utf8' });
  t.is(tree.status, 0, tree.stderr);
  const files = new Set(tree.stdout.trim().split('\n'));
  const lost = [...acked].filter((i) => !files.has(`notes/replica-note-${i}.yaml`));
  t.deepEqual(lost, [], 'acknowledged writes missing from production');
  const fsck = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-dangling'], { encoding: 'utf8' });
  t.is(fsck.status, 0, fsck.stderr);
  t.log(`${acked.size} of ${WRITES} writes acknowledged (the rest went to the killed replica), lost 0, fsck clean`);
});
