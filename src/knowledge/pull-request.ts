// Opens a pull request for a mirrored environment on GitHub (or GitHub Enterprise via its API base
// URL). Allowed to anyone in the organization; needs mirroring on.
import type { Principal } from '../auth/index.ts';
import { Conflict } from '../errors.ts';
import type { KnowledgeDeps } from './deps.ts';
import { MirrorNotConfigured } from './errors.ts';
import { mirrorBranch } from './environments-store.ts';
import { mirrorEnvironment, mirrorOf } from './mirror.ts';
import { environmentOf } from './scope.ts';

/** `https://github.com/acme/knowledge.git` -> acme/knowledge. */
export function repositoryOf(url: string): { owner: string; repo: string } | undefined {
  const m = /^[a-z+]+:\/\/[^/]+\/(?:.*\/)?([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url);
  return m ? { owner: m[1]!, repo: m[2]! } : undefined;
}

/** Pushes the environment's branch and opens a pull request into the mirror's main branch. */
export async function openPullRequest(deps: KnowledgeDeps, p: Principal, id: string, input: { title?: string; body?: string }) {
  const env = await environmentOf(deps, p.orgId, id);
  const mirror = await mirrorOf(deps, p.orgId);
  if (!mirror) throw new MirrorNotConfigured();
  if (env.throwaway) throw new Conflict('A throwaway environment has no branch; keep it first', 'THROWAWAY_NOT_MIRRORED');
  const target = mirror.repository ? { owner: mirror.repository.split('/')[0]!, repo: mirror.repository.split('/')[1] ?? '' } : repositoryOf(mirror.url);
  if (!target?.owner || !target.repo) throw new Conflict('Set the mirror repository (owner/name) to open pull requests', 'MIRROR_REPOSITORY_UNKNOWN');
  if (!(await mirrorEnvironment(deps, p.orgId, env))) throw new Conflict('Could not push the environment to the mirror', 'MIRROR_PUSH_FAILED');
  // Loaded here: only organizations with a GitHub mirror ever open a pull request.
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({
    auth: mirror.secret_sealed ? deps.secretBox.open(mirror.secret_sealed) : undefined,
    baseUrl: mirror.api_base_url ?? 'https://api.github.com',
    request: { fetch: deps.outbound.fetch },
    // Octokit's own request log would print to the console; a failure is logged below, once.
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  try {
    const { data } = await octokit.rest.pulls.create({
      owner: target.owner,
      repo: target.repo,
      head: mirrorBranch(env),
      base: mirror.main_branch,
      title: input.title ?? `Knowledge: ${env.name}`,
      body: input.body ?? `Changes of the environment "${env.name}", opened by ${p.email}.`,
    });
    return { number: data.number, url: data.html_url, head: mirrorBranch(env), base: mirror.main_branch };
  } catch (err) {
    // The API base is named by an admin: unreachable, refused and any HTTP status read alike (the log has them).
    deps.log.warn({ err, environment_id: env.id, status: (err as { status?: number }).status }, 'opening a pull request failed');
    throw new Conflict('The git provider could not be reached, is not allowed, or refused the pull request', 'PULL_REQUEST_FAILED');
  }
}
