// Bringing production's changes into an environment (an update of its branch, recorded as a merge
// commit in the environment), with the files that conflict resolved: each one keeps the
// environment's version, production's, or a merged version. Once updated, the environment merges
// into production without conflict. The update is one commit: a request that fails midway leaves
// the environment as it was.
import type { Principal } from '../auth/index.ts';
import { MAIN_BRANCH, mergeBranch, readFile, type FileResolution, type GitAuthor, type GitRepo } from '../git/index.ts';
import { ValidationFailed, type FieldIssue } from '../errors.ts';
import type { KnowledgeDeps } from './deps.ts';
import { MergeConflicts } from './errors.ts';
import { envBranch, touchEnvironment, type EnvironmentRow } from './environments-store.ts';
import { classifyPath } from './kinds.ts';
import { mirrorEnvironment } from './mirror.ts';
import { authorOf, environmentOf, requireEnvironmentRole } from './scope.ts';
import { validateItem } from './validate-item.ts';
import { parseYaml, updateYaml } from './yaml-doc.ts';

/** How a person settles one conflicting file. */
export interface ResolutionInput {
  path: string;
  keep: 'environment' | 'production' | 'merged';
  /** With `merged`: the file's text (null deletes it). */
  content?: string | null;
  /** With `merged`, for a knowledge item: its fields, written over the environment's file keeping its comments. */
  value?: Record<string, unknown>;
}

/** Merges production into the environment; `resolutions` settle the files that conflict (409 with those left). */
export async function updateFromProduction(deps: KnowledgeDeps, p: Principal, id: string, body: { resolutions?: ResolutionInput[] }) {
  requireEnvironmentRole(p);
  const env = await environmentOf(deps, p.orgId, id);
  const repo = await deps.repos.repo(p.orgId);
  const author = await authorOf(deps, p);
  const inputs = body.resolutions ?? [];
  const resolutions = inputs.length > 0 ? await checkedResolutions(repo, env, inputs, author) : [];
  const outcome = await mergeBranch({
    repo,
    from: MAIN_BRANCH,
    into: envBranch(env),
    author,
    message: [`Update environment "${env.name}" with production`, ...inputs.map((r) => `${r.path}: kept ${r.keep === 'merged' ? 'a merged version' : `${r.keep}'s version`}`)].join('\n'),
    // Always a merge commit, so the environment's history says when it took production's changes.
    fastForward: false,
    resolutions,
  });
  if (outcome.status === 'conflict') throw new MergeConflicts(outcome.conflicts);
  await touchEnvironment(deps.store, p.orgId, env.id, deps.clock.now());
  if (outcome.status !== 'up_to_date') await mirrorEnvironment(deps, p.orgId, env);
  return { merge: outcome.status, commit: outcome.status === 'up_to_date' ? null : (outcome.oid ?? null) };
}

/**
 * The resolutions as the git adapter takes them, or 422: each names a file that conflicts (once), and
 * a merged knowledge item passes its kind's schema.
 */
async function checkedResolutions(repo: GitRepo, env: EnvironmentRow, inputs: ResolutionInput[], author: GitAuthor): Promise<FileResolution[]> {
  const predicted = await mergeBranch({ repo, from: MAIN_BRANCH, into: envBranch(env), author, dryRun: true, fastForward: false });
  const conflicting = new Set(predicted.status === 'conflict' ? predicted.conflicts : []);
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const out: FileResolution[] = [];
  for (const [i, r] of inputs.entries()) {
    const loc = ['body', 'resolutions', i];
    if (!conflicting.has(r.path) || seen.has(r.path)) {
      issues.push({ loc: [...loc, 'path'], msg: seen.has(r.path) ? `${r.path} is resolved twice` : `${r.path} does not conflict with production`, type: 'value_error' });
      continue;
    }
    seen.add(r.path);
    if (r.keep !== 'merged') {
      out.push({ path: r.path, take: r.keep === 'environment' ? 'ours' : 'theirs' });
      continue;
    }
    const merged = await mergedContent(repo, env, r, loc, issues);
    if (merged !== undefined) out.push({ path: r.path, content: merged });
  }
  if (issues.length > 0) throw new ValidationFailed(issues);
  return out;
}

/** The text of a merged version, or undefined after adding the issue that refuses it. */
async function mergedContent(repo: GitRepo, env: EnvironmentRow, r: ResolutionInput, loc: (string | number)[], issues: FieldIssue[]): Promise<string | null | undefined> {
  const item = classifyPath(r.path);
  if ((r.content === undefined) === (r.value === undefined)) {
    issues.push({ loc, msg: 'A merged version needs either content or value', type: 'value_error' });
    return undefined;
  }
  if (r.content === null) return null;
  try {
    if (r.value !== undefined) {
      if (!item) throw new ValidationFailed([{ loc: [...loc, 'value'], msg: `${r.path} is not a knowledge item: send its content`, type: 'value_error' }]);
      const value = validateItem(item.kind, item.id, r.value, [...loc, 'value']);
      const current = (await readFile({ repo, ref: envBranch(env), path: r.path })) ?? (await readFile({ repo, ref: MAIN_BRANCH, path: r.path }));
      return updateYaml(current, value);
    }
    if (item) {
      const parsed = parseYaml(r.content!);
      if (parsed.error) throw new ValidationFailed([{ loc: [...loc, 'content'], msg: `${r.path} is not valid YAML: ${parsed.error}`, type: 'value_error' }]);
      validateItem(item.kind, item.id, parsed.value, [...loc, 'content']);
    }
    return r.content!;
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    issues.push(...err.issues);
    return undefined;
  }
}
