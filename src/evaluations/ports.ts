// What evaluations need from other domains, as small interfaces; src/compose implements them over
// the knowledge repository, the agent and the directory of users (one file per port).
import type { Principal } from '../auth/index.ts';
import type { EvaluationDefinition } from '../shared/evaluation-suite.ts';

export type { EvaluationDefinition };

/** Production or an environment, resolved at one moment. */
export interface ResolvedTarget {
  kind: 'production' | 'environment';
  environment_id: string | null;
  /** `production`, or the environment's name. */
  name: string;
  /** Head commit of its knowledge; null when the organization has no knowledge yet. */
  commit: string | null;
  /** Mirrored branch of an environment (`service/env-<slug>`), when mirroring is on. */
  git_branch: string | null;
  /** Warehouse target overrides per connection. */
  overrides: Record<string, Record<string, string>>;
}

/** Evaluation definitions and targets, read from the organization's knowledge. */
export interface EvaluationKnowledge {
  /** Production (undefined) or an environment of the principal's organization; EnvironmentNotFound (404) otherwise. */
  resolveTarget(principal: Principal, environmentId: string | undefined): Promise<ResolvedTarget>;
  /** The evaluation at the head of production or an environment, and that commit; EvaluationNotFound or EvaluationUnusable. */
  definition(principal: Principal, environmentId: string | undefined, id: string): Promise<{ definition: EvaluationDefinition; commit: string }>;
  /** Every evaluation at the head of production or an environment; unreadable files come with their error. */
  definitions(principal: Principal, environmentId: string | undefined): Promise<{ commit: string | null; evaluations: (EvaluationDefinition | { id: string; error: string })[] }>;
}

/** One reply of the agent: its text, and the last result table it produced (first rows only). */
export interface AgentReply {
  status: 'completed' | 'stopped' | 'failed';
  text: string;
  table?: { columns: string[]; rows: unknown[][]; row_count: number };
  /** Every query the reply ran, in order. */
  sql: string[];
}

/** Questions put to the agent on behalf of the user who started a run. */
export interface EvaluationAgent {
  /**
   * Asks in chat `chatId` (a new chat is hidden from the user's history), in the environment (undefined:
   * production) with its knowledge read at `commit`. Aborting `signal` asks the agent to stop; the reply
   * then comes back as it stands.
   */
  ask(principal: Principal, input: { chatId: string; message: string; environmentId: string | undefined; commit: string | null; signal: AbortSignal }): Promise<AgentReply>;
}

/** Who a run acts as after a restart: the user's current role and permissions, or undefined when they left the organization. */
export interface EvaluationPrincipals {
  principalOf(orgId: string, userId: string): Promise<Principal | undefined>;
}

export interface EvaluationPorts {
  knowledge: EvaluationKnowledge;
  agent: EvaluationAgent;
  principals: EvaluationPrincipals;
}
