// `npm run knowledge:check [-- --repair] [-- --json]`: the integrity check of every organization's
// knowledge repository under SEXTANT_DATA_DIR: refs, reflogs and every reachable object, then
// `git fsck --full` when git is installed. Exit status 1 when anything is damaged. `--repair`
// restores damaged branches from their reflog and removes stale lock files: stop the service first.
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import type { FsClient } from 'isomorphic-git';
import { loadConfig } from './config.ts';
import { checkRepo, createRepoRegistry } from './git/index.ts';

const repair = process.argv.includes('--repair');
const json = process.argv.includes('--json');
const config = loadConfig();
const root = join(config.dataDir, 'knowledge');
const repos = createRepoRegistry({ fs: nodeFs as unknown as FsClient, root });
const results = [];
let ok = true;
for (const orgId of await repos.keys()) {
  const report = await checkRepo({ repo: await repos.repo(orgId), repair, full: true });
  const fsck = spawnSync('git', ['--git-dir', join(root, `${orgId}.git`), 'fsck', '--full', '--strict', '--no-progress'], { encoding: 'utf8' });
  const gitFsck = fsck.error ? 'git not installed' : fsck.status === 0 ? 'ok' : (fsck.stderr || fsck.stdout).trim();
  ok &&= report.ok && (fsck.error !== undefined || fsck.status === 0);
  results.push({ org_id: orgId, ...report, git_fsck: gitFsck });
  if (json) continue;
  console.log(`${orgId}: ${report.ok ? 'ok' : 'DAMAGED'} (${report.objects?.checked ?? 0} objects checked; git fsck: ${gitFsck.split('\n')[0]})`);
  for (const r of report.refs) if (r.status !== 'ok') console.log(`  ${r.ref}: ${r.status}${r.problem ? ` (${r.problem})` : ''}${r.oid ? ` -> ${r.oid}` : ''}`);
  for (const e of report.objects?.errors ?? []) console.log(`  error: ${e}`);
  for (const w of report.objects?.warnings ?? []) console.log(`  warning: ${w}`);
  for (const f of report.removed) console.log(`  removed stale ${f}`);
}
if (json) console.log(JSON.stringify(results, null, 2));
else if (results.length === 0) console.log(`no knowledge repositories under ${root}`);
if (!ok && !json) console.log('\nSome repositories are damaged: see "Repairing knowledge" in the README.');
process.exitCode = ok ? 0 : 1;
