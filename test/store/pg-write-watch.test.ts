// Which compiled PostgreSQL statements count as writes to watched tables: conservative, except the
// inserts and column updates a watch provably ignores.
import test from 'ava';
import { mayWrite } from '../../src/store/pg-write-watch.ts';
import type { WatchedTables } from '../../src/store/executor.ts';

const WATCH: WatchedTables = {
  users: { update: true, delete: true },
  api_tokens: { update: ['revoked_at', 'expires_at'], delete: true },
  memberships: { insert: true, update: true, delete: true },
};

test('reads never count; writes to watched tables do, in builder or hand-written SQL', (t) => {
  t.false(mayWrite('select * from "users" where "id" = $1', WATCH));
  t.true(mayWrite('select * from users where id = $1 for update', WATCH));
  t.true(mayWrite('update "users" set "disabled_at" = $1 where "id" = $2', WATCH));
  t.true(mayWrite('UPDATE users SET token_version = token_version + 1 WHERE id = $1', WATCH));
  t.true(mayWrite('delete from "api_tokens" where "id" = $1', WATCH));
  t.true(mayWrite('insert into "memberships" ("user_id") values ($1)', WATCH));
  t.true(mayWrite('with gone as (delete from users where id = $1 returning id) select * from gone', WATCH));
  t.false(mayWrite('update "chats" set "title" = $1 where "id" = $2', WATCH));
  t.false(mayWrite('update "users_archive" set "x" = $1', WATCH), 'another table whose name contains a watched one');
});

test('an insert the watch ignores does not count, unless it may update on conflict', (t) => {
  t.false(mayWrite('insert into "users" ("id", "email") values ($1, $2)', WATCH));
  t.true(mayWrite('insert into "users" ("id") values ($1) on conflict ("id") do update set "email" = excluded."email"', WATCH));
  t.false(mayWrite('insert into "users" ("id") values ($1) on conflict do nothing', WATCH));
});

test('an update setting only unwatched columns does not count; any doubt counts', (t) => {
  t.false(mayWrite('update "api_tokens" set "last_used_at" = $1 where "id" = $2 and ("last_used_at" is null or "last_used_at" < $3)', WATCH));
  t.true(mayWrite('update "api_tokens" set "revoked_at" = $1 where "id" = $2', WATCH));
  t.true(mayWrite('update "api_tokens" set "last_used_at" = $1, "expires_at" = $2 where "id" = $3', WATCH));
  t.true(mayWrite('update "api_tokens" set "last_used_at" = (select 1 where true), "revoked_at" = $1 where "id" = $2', WATCH), 'a subquery in the SET list');
  t.true(mayWrite('update "api_tokens" set "last_used_at" = $1 from "users" where "users"."id" = "api_tokens"."user_id" and "users"."disabled_at" is null', WATCH), 'names a watched table too');
});
