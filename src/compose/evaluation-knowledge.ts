// The evaluations' knowledge port: targets resolved to their head commit (with the environment's
// name, mirrored branch and warehouse overrides), and evaluation files read through the knowledge
// domain and migrated on read when they predate the current format.
import type { Principal } from '../auth/index.ts';
import { EvaluationNotFound, EvaluationUnusable, type EvaluationKnowledge, type ResolvedTarget } from '../evaluations/index.ts';
import { AppError } from '../errors.ts';
import { resolveRef } from '../git/index.ts';
import { getEnvironment, getItem, listItems, readEvaluationFile, scopeFor, type KnowledgeDeps } from '../knowledge/index.ts';


/** Reads evaluations and targets as the principal (admins and modelers reach environments). */
export function evaluationKnowledgePort(k: KnowledgeDeps): EvaluationKnowledge {
  return {
    async resolveTarget(p: Principal, environmentId: string | undefined): Promise<ResolvedTarget> {
      const env = environmentId === undefined ? undefined : await getEnvironment(k, p, environmentId);
      const scope = await scopeFor(k, p.orgId, environmentId);
      const commit = (await resolveRef({ repo: scope.repo, ref: scope.branch })) ?? null;
      if (!env) return { kind: 'production', environment_id: null, name: 'production', commit, git_branch: null, overrides: {} };
      const overrides = Object.fromEntries(Object.entries(env.targets).map(([connection, t]) => [connection, { ...t } as Record<string, string>]));
      return { kind: 'environment', environment_id: env.id, name: env.name, commit, git_branch: env.git_branch, overrides };
    },
    async definition(p, environmentId, id) {
      let item;
      try {
        item = await getItem(k, p, environmentId, 'evaluations', id);
      } catch (err) {
        if (err instanceof AppError && err.kind === 'not_found' && err.code === 'KNOWLEDGE_ITEM_NOT_FOUND') throw new EvaluationNotFound(id);
        // A malformed id can name no file.
        if (err instanceof AppError && err.code === 'VALIDATION_FAILED') throw new EvaluationNotFound(id);
        throw err;
      }
      const read = item.data ? readEvaluationFile(id, item.data) : { error: item.error ?? 'not a YAML mapping' };
      if ('error' in read) throw new EvaluationUnusable(id, read.error);
      return { definition: read, commit: item.commit };
    },
    async definitions(p, environmentId) {
      const { commit, items } = await listItems(k, p, environmentId, 'evaluations');
      return {
        commit,
        evaluations: items.map((item) => {
          const read = item.data ? readEvaluationFile(item.id, item.data) : { error: item.error ?? 'not a YAML mapping' };
          return 'error' in read ? { id: item.id, error: read.error } : read;
        }),
      };
    },
  };
}
