// `npm run knowledge:check [-- --repair] [-- --json]`: the integrity check of every organization's
// knowledge repository under SEXTANT_DATA_DIR: refs, reflogs and every reachable object, then
// `git fsck --full` when git is installed, and the service database's environments against the
// branches (an organization whose repository folder or environment branch is gone). Exit status 1 when
// anything is damaged. Each repository is checked under its cross-process write lock, the one the
// service's writes take (a lock file beside it, or a PostgreSQL advisory lock with SEXTANT_DATABASE_URL),
// so `--repair` may run beside a live service: it waits for a write under way and never removes a live
// writer's ref lock. `--repair` restores damaged branches from their reflog, replaces damaged objects
// that a pack also holds and removes stale lock files; what it cannot repair it names.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from './clock.ts';
import { knowledgeWriteLock } from './compose/knowledge-lock.ts';
import { loadConfig } from './config.ts';
import type { RepoCheck } from './git/index.ts';
import { checkKnowledgeRepositories, createKnowledgeDeps } from './knowledge/index.ts';
import { createLogger } from './log.ts';
import { createSecretBox } from './security/index.ts';
import { openServiceStore } from './store/index.ts';

const repair = process.argv.includes('--repair');
const json = process.argv.includes('--json');
const config = loadConfig();
const root = join(config.dataDir, 'knowledge');
const store = await openServiceStore(config);
const lock = await knowledgeWriteLock(config);
const deps = createKnowledgeDeps({
  store: store.executor,
  clock: systemClock,
  log: createLogger('silent'),
  secretBox: createSecretBox(config.secrets.encryptionKey),
  dataDir: config.dataDir,
  sharedLock: lock.shared,
});
// git fsck runs under the repository's lock too: a service write landing meanwhile would be half seen.
const fscks = new Map<string, { text: string; ok: boolean }>();
const checks = await checkKnowledgeRepositories(deps, { repair, full: true, underLock: async (orgId) => void fscks.set(orgId, await gitFsck(orgId)) }).finally(async () => {
  await lock.close();
  await store.close();
});

/**
 * `git fsck` of one repository: 'ok', 'git not installed', 'no repository', or what it found (an
 * error). Not synchronous: the lock it runs under is kept alive by this process's timers.
 */
function gitFsck(orgId: string): Promise<{ text: string; ok: boolean }> {
  const gitdir = join(root, `${orgId}.git`);
  if (!existsSync(gitdir)) return Promise.resolve({ text: 'no repository', ok: false });
  return new Promise((resolve) => {
    execFile('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict', '--no-progress'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve({ text: 'ok', ok: true });
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ text: 'git not installed', ok: true });
      resolve({ text: (stderr || stdout).trim() || `exit status ${String(err.code)}`, ok: false });
    });
  });
}

function printReport(orgId: string, report: RepoCheck, fsck: string): void {
  console.log(`${orgId}: ${report.ok ? 'ok' : 'DAMAGED'} (${report.objects?.checked ?? 0} objects checked; git fsck: ${fsck.split('\n')[0]})`);
  for (const r of report.refs) if (r.status !== 'ok') console.log(`  ${r.ref}: ${r.status}${r.problem ? ` (${r.problem})` : ''}${r.oid ? ` -> ${r.oid}` : ''}`);
  for (const e of report.objects?.errors ?? []) console.log(`  error: ${e}`);
  for (const w of report.objects?.warnings ?? []) console.log(`  warning: ${w}`);
  for (const oid of report.objects?.repaired ?? []) console.log(`  repaired object ${oid} from another copy in the repository`);
  if (repair) for (const oid of report.objects?.unreadable ?? []) console.log(`  could not repair object ${oid}: no other copy in the repository; restore it from a backup or the mirror (see docs/production.md)`);
  if (repair && report.refs.some((r) => r.status === 'damaged')) console.log('  could not repair the damaged branches above: see "Knowledge repositories and repairing them" in docs/production.md');
  for (const f of report.removed) console.log(`  removed stale ${f}`);
}

const results = [];
let ok = true;
for (const { orgId, report } of checks) {
  // A repository folder that is gone was never locked: its fsck says so.
  const fsck = fscks.get(orgId) ?? (await gitFsck(orgId));
  // A repository git fsck finds fault with is damaged, whatever the service's own check says.
  const orgOk = report.ok && fsck.ok;
  ok &&= orgOk;
  results.push({ org_id: orgId, ...report, ok: orgOk, git_fsck: fsck.text });
  if (!json) printReport(orgId, report, fsck.text);
}
if (json) console.log(JSON.stringify(results, null, 2));
else if (results.length === 0) console.log(`no knowledge repositories under ${root}`);
if (!ok && !json) console.log('\nSome repositories are damaged: see "Knowledge repositories and repairing them" in docs/production.md.');
process.exitCode = ok ? 0 : 1;
