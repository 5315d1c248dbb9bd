// The PostgreSQL handle: a Kysely on a pg pool that answers ping, reads BIGINT as a number like
// SQLite, refuses what a number cannot hold, and never shows the password of its URL.
import test from 'ava';
import { sql } from 'kysely';
import { createServer, type Socket } from 'node:net';
import { openPostgres, redactDatabaseUrl } from '../../src/store/pg-open.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

test('ping answers on a live database, BIGINT reads as a number, and a value past 2^53 is refused rather than rounded', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await t.notThrowsAsync(pg.ping());
  const { rows } = await sql<{ ms: number; flag: number }>`SELECT 1764000000000::bigint AS ms, 1::bigint AS flag`.execute(pg.db);
  t.deepEqual(rows[0], { ms: 1764000000000, flag: 1 });
  await t.throwsAsync(sql`SELECT 9007199254740993::bigint AS big`.execute(pg.db), { message: /exceeds JavaScript's safe integers/ });
});

test('ping rejects when nothing answers, and close ends the pool', async (t) => {
  const pg = openPostgres('postgres://postgres@127.0.0.1:1/none');
  await t.throwsAsync(pg.ping());
  await t.notThrowsAsync(pg.close());
});

test('a connection the server never answers fails once connectTimeoutMs has passed', async (t) => {
  // Accepts, then stays silent: the connection's set-up never completes, however fast or slow the machine.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const { port } = silent.address() as { port: number };
  const pg = openPostgres(`postgres://postgres@127.0.0.1:${port}/none`, { connectTimeoutMs: 200 });
  t.teardown(() => pg.close());
  await t.throwsAsync(pg.ping(), { message: /timeout/ });
});

test('the URL shown in messages has its password masked', (t) => {
  t.is(redactDatabaseUrl('postgres://sextant:hunter2@db:5432/sextant'), 'postgres://sextant:***@db:5432/sextant');
  t.is(redactDatabaseUrl('postgres://sextant@db/sextant'), 'postgres://sextant@db/sextant');
  t.notRegex(redactDatabaseUrl('postgres://u:p%40ss@db/x'), /p%40ss|p@ss/);
});
