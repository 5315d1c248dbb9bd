// The chats' check of suggested questions, through the agent's offline planner: with the offline
// model, a suggestion is offered only when the planner answers it over the caller's knowledge. A
// hosted model cannot be asked without a model call (and its cost), so every question passes then.
// Answers are cached per organization, environment, knowledge commit and question.
import { offlineAnswers, offlineFollowUps, type LlmProvider } from '../agent/index.ts';
import type { Principal } from '../auth/index.ts';
import type { SuggestionSources } from '../chats/index.ts';
import type { Clock } from '../clock.ts';
import { effectiveEnvironment, knowledgeAt, type KnowledgeDeps } from '../knowledge/index.ts';
import { knowledgePort } from './agent-ports.ts';

/** Entries kept; the oldest go first (questions repeat far more than they vary). */
const CACHE_SIZE = 2000;

type Check = Pick<SuggestionSources, 'answers' | 'followUps'>;

/** `answers` and `followUps` for the suggestions of `provider` (none when it is not the offline model). */
export function questionCheck(knowledge: KnowledgeDeps, provider: LlmProvider, clock: Clock): Check {
  if (provider.name !== 'offline') return {};
  const port = knowledgePort(knowledge);
  const cache = new Map<string, unknown>();
  async function cached<T>(p: Principal, envId: string | undefined, what: string, compute: () => Promise<T>): Promise<T> {
    const env = effectiveEnvironment(p, envId);
    const { commit } = await knowledgeAt(knowledge, p.orgId, env);
    const key = JSON.stringify([p.orgId, env ?? null, commit, what]);
    if (cache.has(key)) return cache.get(key) as T;
    const value = await compute();
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
    return value;
  }
  const search = (p: Principal, envId: string | undefined) => async (query: string, limit: number) => (await port.search(p, envId, query, limit)).items;
  return {
    answers: (p, envId, question, earlier) => cached(p, envId, `a:${[...earlier, question].join('\n')}`, () => offlineAnswers(search(p, envId), question, earlier, clock.now())),
    followUps: (p, envId, question, earlier) => cached(p, envId, `f:${[...earlier, question].join('\n')}`, () => offlineFollowUps(search(p, envId), question, earlier, clock.now())),
  };
}
