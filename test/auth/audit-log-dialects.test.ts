// The audit log reads the same on SQLite and PostgreSQL: entries written in one millisecond page
// newest first without gaps or repeats, filters apply, the export reads every entry in batches, and
// another organization's entries are never selected.
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import { accessInterruptedSince } from '../../src/auth/audit-log/access-interrupted.ts';
import { exportAudit, listAudit, type AuditView } from '../../src/auth/audit-log/read-audit.ts';
import { appendAudit, auditEntryQuery } from '../../src/auth/audit-log/write-audit.ts';
import { FakeClock } from '../../src/clock.ts';
import { dialectTest } from '../helpers/executors.ts';

const admin = (orgId: string) => ({ userId: 'boss', orgId, email: 'boss@acme.test', role: 'admin' }) as Principal;

dialectTest('entries of one millisecond page newest first, by filter, without gaps or repeats', async (t, { x }) => {
  const clock = new FakeClock();
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES ('boss', 'boss@acme.test', 'Boss', 0)`);
  for (let i = 0; i < 25; i++) {
    await appendAudit(x, clock, { action: i % 2 ? 'odd' : 'even', orgId: 'acme', actorId: i % 5 ? 'boss' : null, target: { type: 't', id: `x${i}` } });
    if (i === 9) clock.advance(60_000);
  }
  await appendAudit(x, clock, { action: 'odd', orgId: 'zeta', target: { type: 't', id: 'zeta-only' } });
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAudit({ x }, admin('acme'), {}, { cursor, limit: 7 });
    seen.push(...page.entries.map((e) => e.target_id!));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  t.deepEqual(seen, Array.from({ length: 25 }, (_, i) => `x${24 - i}`));
  const odd = await listAudit({ x }, admin('acme'), { action: 'odd', actorId: 'boss' }, { limit: 50 });
  t.is(odd.entries.length, 10);
  t.like(odd.entries[0], { actor_email: 'boss@acme.test', outcome: 'success', target_type: 't' });
  const early = await listAudit({ x }, admin('acme'), { to: clock.now() }, { limit: 50 });
  t.is(early.entries.length, 10);
});

dialectTest('the export reads every matching entry across batches and nothing of another organization', async (t, { x }) => {
  const clock = new FakeClock();
  const entries = Array.from({ length: 1203 }, (_, i) => auditEntryQuery(x, { action: 'bulk', orgId: 'acme', target: { type: 't', id: `r${i}` }, data: { i } }, clock.now()));
  t.true((await x.batch(entries)).ok);
  await appendAudit(x, clock, { action: 'bulk', orgId: 'zeta', target: { type: 't', id: 'zeta-only' } });
  const got: AuditView[] = [];
  for await (const e of exportAudit({ x }, admin('acme'), { action: 'bulk' })) got.push(e);
  t.is(got.length, 1203);
  t.is(new Set(got.map((e) => e.id)).size, 1203);
  t.deepEqual(got[0]!.data, { i: 1202 });
  t.false(got.some((e) => e.target_id === 'zeta-only'));
});

dialectTest('a forged cursor is a validation error', async (t, { x }) => {
  const err = await t.throwsAsync(listAudit({ x }, admin('acme'), {}, { cursor: Buffer.from('[1,2]').toString('base64url'), limit: 5 }));
  t.is((err as { code?: string }).code, 'VALIDATION_FAILED');
});

dialectTest("a member's access counts as interrupted by a later membership, or a later deactivation or removal there or in the base organization", async (t, { x }) => {
  const clock = new FakeClock(1_000_000);
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('base', 'Base', 0)`);
  await x.run(sql`INSERT INTO organizations (id, name, base_org_id, created_at) VALUES ('ws', 'Workspace', 'base', 0)`);
  await x.run(sql`INSERT INTO users (id, email, name, created_at) VALUES ('m', 'm@acme.test', 'M', 0)`);
  await x.run(sql`INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES ('m', 'base', 'user', 0, 1000), ('m', 'ws', 'user', 0, 5000)`);
  const since = (orgId: string, at: number) => accessInterruptedSince(x, orgId, 'm', at);
  t.false(await since('ws', 5000), 'a grant made as the membership began');
  t.true(await since('ws', 4999), 'the membership began after the grant: taken out and put back');
  t.false(await since('base', 4999));
  await appendAudit(x, clock, { action: 'member_deactivated', orgId: 'base', userId: 'm', target: { type: 'user', id: 'm' } });
  t.true(await since('ws', 1_000_000), "a deactivation in the base organization reaches the workspace");
  t.false(await since('ws', 1_000_001), 'not one before the grant');
  await appendAudit(x, clock, { action: 'member_deactivated', orgId: 'elsewhere', userId: 'm', target: { type: 'user', id: 'm' } });
  t.false(await since('base', 1_000_001), 'nor one in another organization');
});
