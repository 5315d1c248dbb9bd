// The integrity check of every organization's knowledge repository: at start-up (refs and their
// commits, with repair: an empty or unreadable branch is restored from its reflog) and from
// `npm run knowledge:check` (every reachable object as well). What it found is logged either way.
import { checkRepo, type RepoCheck } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';

export interface KnowledgeCheck {
  orgId: string;
  report: RepoCheck;
}

/** Checks every repository under the knowledge folder; `repair` restores refs and removes stale lock files. */
export async function checkKnowledgeRepositories(deps: KnowledgeDeps, { repair = false, full = false }: { repair?: boolean; full?: boolean } = {}): Promise<KnowledgeCheck[]> {
  const out: KnowledgeCheck[] = [];
  for (const orgId of await deps.repos.keys()) {
    const repo = await deps.repos.repo(orgId);
    const report = await repo.lock.run(() => checkRepo({ repo, repair, full, now: deps.clock.now() }));
    out.push({ orgId, report });
    const recovered = report.refs.filter((r) => r.status === 'recovered');
    const damaged = report.refs.filter((r) => r.status === 'damaged');
    if (recovered.length > 0) deps.log.warn({ org_id: orgId, recovered, removed: report.removed }, 'knowledge repository: damaged branches restored from their reflog');
    if (damaged.length > 0 || (report.objects?.errors.length ?? 0) > 0) {
      deps.log.error({ org_id: orgId, damaged, object_errors: report.objects?.errors.slice(0, 20) }, 'knowledge repository is damaged: see "Repairing knowledge" in the README (npm run knowledge:check -- --repair)');
    }
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
