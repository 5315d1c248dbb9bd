// The integrity check of every organization's knowledge repository: at start-up (refs, their commits
// and every object their tips reach, with repair: an empty or unreadable branch is restored from its
// reflog) and from `npm run knowledge:check` (every reachable object as well). Each check holds the
// repository's cross-process write lock, the one the service's writes take, so a repair never removes
// a live writer's lock file. The database is compared too: an organization with environments whose
// repository folder, or whose environment branch, is gone is reported. What it found is logged.
import { branchRef, checkRepo, type RepoCheck } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { envBranch, environmentsByOrg, type EnvironmentRow } from './environments-store.ts';

export interface KnowledgeCheck {
  orgId: string;
  report: RepoCheck;
}

/** Checks every repository under the knowledge folder; `repair` restores refs and removes stale lock files. */
/**
 * `underLock`: more checking of one repository, done while its write lock is still held (the command
 * line's `git fsck`: a write landing during it showed objects it had not read yet as missing).
 */
export async function checkKnowledgeRepositories(
  deps: KnowledgeDeps,
  { repair = false, full = false, underLock }: { repair?: boolean; full?: boolean; underLock?: (orgId: string) => Promise<void> } = {},
): Promise<KnowledgeCheck[]> {
  const out: KnowledgeCheck[] = [];
  const environments = await environmentsByOrg(deps.store);
  const keys = await deps.repos.keys();
  for (const orgId of [...new Set([...keys, ...environments.keys()])].sort()) {
    const listed = environments.get(orgId) ?? [];
    const report = keys.includes(orgId) ? await checkOne(deps, orgId, listed, { repair, full, underLock }) : lostRepository(listed);
    out.push({ orgId, report });
    logFindings(deps, orgId, report);
  }
  deps.log.info(
    {
      repositories: out.length,
      refs: out.reduce((n, c) => n + c.report.refs.length, 0),
      recovered: out.reduce((n, c) => n + c.report.refs.filter((r) => r.status === 'recovered').length, 0),
      damaged: out.reduce((n, c) => n + c.report.refs.filter((r) => r.status === 'damaged').length, 0),
      stale_files_removed: out.reduce((n, c) => n + c.report.removed.length, 0),
    },
    'knowledge integrity check',
  );
  return out;
}

async function checkOne(deps: KnowledgeDeps, orgId: string, listed: EnvironmentRow[], o: { repair: boolean; full: boolean; underLock: ((orgId: string) => Promise<void>) | undefined }): Promise<RepoCheck> {
  const repo = await deps.repos.repo(orgId);
  const report = await repo.lock.run(async () => {
    const checked = await checkRepo({ repo, repair: o.repair, full: o.full, now: deps.clock.now() });
    await o.underLock?.(orgId);
    return checked;
  });
  const present = new Set(report.refs.map((r) => r.ref));
  for (const env of listed) {
    const ref = branchRef(envBranch(env));
    if (!present.has(ref)) report.refs.push({ ref, status: 'damaged', oid: null, problem: `it is missing while the database lists environment ${env.id} (${env.name})` });
  }
  report.ok &&= report.refs.every((r) => r.status !== 'damaged');
  return report;
}

function lostRepository(listed: EnvironmentRow[]): RepoCheck {
  return {
    ok: false,
    refs: [{ ref: 'refs/heads/main', status: 'damaged', oid: null, problem: `the repository folder is missing while the database lists ${listed.length} environment(s) of the organization` }],
    removed: [],
  };
}

function logFindings(deps: KnowledgeDeps, orgId: string, report: RepoCheck): void {
  const recovered = report.refs.filter((r) => r.status === 'recovered');
  const damaged = report.refs.filter((r) => r.status === 'damaged');
  if (recovered.length > 0) deps.log.warn({ org_id: orgId, recovered, removed: report.removed }, 'knowledge repository: damaged branches restored from their reflog');
  if (damaged.length > 0 || (report.objects?.errors.length ?? 0) > 0) {
    deps.log.error({ org_id: orgId, damaged, object_errors: report.objects?.errors.slice(0, 20) }, 'knowledge repository is damaged: see "Knowledge repositories and repairing them" in docs/production.md (npm run knowledge:check -- --repair)');
  }
}
