// The knowledge mirror's settings on SQLite and PostgreSQL: stored sealed per organization, shown
// without the credential, kept on a same-host change, and never read or removed by another organization.
import type { FsClient } from 'isomorphic-git';
import { sql } from 'kysely';
import { createFsFromVolume, Volume } from 'memfs';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { createLogger } from '../../src/log.ts';
import { createKnowledgeDeps, deleteMirror, getMirror, setMirror } from '../../src/knowledge/index.ts';
import { createSecretBox } from '../../src/security/index.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';

const admin = (orgId: string) => ({ orgId, userId: 'u1', email: 'u1@example.com', role: 'admin', permissions: [] }) as unknown as Principal;

async function setup(x: Executor) {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('other', 'Other', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@example.com', 0)`);
  // Organizations without knowledge yet: setting a mirror pushes nothing (no network).
  const fs = createFsFromVolume(new Volume()) as unknown as FsClient;
  return createKnowledgeDeps({ store: x, clock: new FakeClock(5_000), log: createLogger('silent'), secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')), dataDir: '/data', fs });
}

dialectTest('mirror settings are per organization, sealed, and shown without the credential', async (t, { x }) => {
  const deps = await setup(x);
  const set = await setMirror(deps, admin('acme'), { url: 'https://git.example.com/acme/k.git', token: 'tok-secret' });
  t.like(set, { enabled: true, url: 'https://git.example.com/acme/k.git', username: '', has_token: true, main_branch: 'main', last_push_at: null });
  const row = await x.one(sql<{ secret_sealed: string; updated_at: number }>`SELECT secret_sealed, updated_at FROM knowledge_mirrors WHERE org_id = 'acme'`);
  t.false(row!.secret_sealed.includes('tok-secret'), 'the token is stored sealed');
  t.is(row!.updated_at, 5_000);
  t.deepEqual(await getMirror(deps, admin('other')), { enabled: false });

  // Same host, no token: the stored one is kept (the upsert replaces the rest).
  t.like(await setMirror(deps, admin('acme'), { url: 'https://git.example.com/acme/k2.git', main_branch: 'prod' }), { has_token: true, main_branch: 'prod' });
  await deleteMirror(deps, admin('other'));
  t.like(await getMirror(deps, admin('acme')), { enabled: true, url: 'https://git.example.com/acme/k2.git' }, "another organization's delete leaves it");
  await deleteMirror(deps, admin('acme'));
  t.deepEqual(await getMirror(deps, admin('acme')), { enabled: false });
});
