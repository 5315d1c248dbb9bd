// The evaluations domain over a real SQLite file with in-memory twins of its ports: a knowledge port
// serving one definition, an agent that answers from a script (and can hold answers until released),
// and a directory of principals.
import type { ExecutionContext } from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { organizationInsert, type Principal } from '../../src/auth/index.ts';
import { sqliteNow } from './sqlite-now.ts';
import { FakeClock } from '../../src/clock.ts';
import { Evaluations, type AgentReply, type EvaluationDefinition, type EvaluationPorts } from '../../src/evaluations/index.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, sqliteExecutor, type Store } from '../../src/store/index.ts';
import type { SuiteQuestion } from '../../src/shared/evaluation-suite.ts';

export const COMMIT = 'c'.repeat(40);

export const modeler: Principal = { userId: 'u1', email: 'm@example.com', orgId: 'acme', baseOrgId: 'acme', role: 'modeler', permissions: [], credential: 'session', scopes: [] };

export const questionsOf = (n: number): SuiteQuestion[] =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i + 1}`, question: `How many things of kind ${i + 1}?`, expected_answer: (i + 1) * 10, answer_type: 'count' as const, tolerance_pct: 0 }));

/** Answers a question (and the follow-up) by message; may wait on the signal. */
export type Script = (message: string, ctx: { chatId: string; signal: AbortSignal }) => Promise<Partial<AgentReply> | string> | Partial<AgentReply> | string;

/** The answer of the scripted questions: "There are <expected>." */
export const rightAnswers: Script = (message) => {
  const n = /kind (\d+)/.exec(message)?.[1];
  return n ? `There are ${Number(n) * 10} of them.` : 'I cannot say.';
};

export interface EvaluationFixture {
  store: Store;
  file: string;
  evaluations: Evaluations;
  shutdown: AbortController;
  calls: string[];
  inFlight: () => number;
  maxInFlight: () => number;
  /** Who is still allowed to run (set to undefined to simulate a user who left). */
  principal: { current: Principal | undefined };
  /** The definition the knowledge port serves (replace its questions to simulate an edit). */
  definition: EvaluationDefinition;
}

/** Builds the domain on `file` (a new one by default); every question goes through `script`. */
export function evaluationFixture(
  t: ExecutionContext,
  { script = rightAnswers, questions = questionsOf(3), concurrency = 4, questionTimeoutMs = 60_000, file }: { script?: Script; questions?: SuiteQuestion[]; concurrency?: number; questionTimeoutMs?: number; file?: string } = {},
): EvaluationFixture {
  const path = file ?? join(mkdtempSync(join(tmpdir(), 'sextant-eval-')), 'sextant.db');
  const store = openStore({ file: path });
  const clock = new FakeClock();
  if (!store.db.prepare('SELECT 1 FROM organizations WHERE id = ?').get('acme')) sqliteNow(store.db, (x) => organizationInsert(x, clock, { id: 'acme', name: 'Acme' }));
  const shutdown = new AbortController();
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const principal = { current: modeler as Principal | undefined };
  const definition: EvaluationDefinition = { id: 'core', name: 'Core', questions, migrated: false, warnings: [] };
  const ports: EvaluationPorts = {
    knowledge: {
      resolveTarget: async (_p, env) => ({ kind: env ? 'environment' : 'production', environment_id: env ?? null, name: env ?? 'production', commit: COMMIT, git_branch: null, overrides: {} }),
      definition: async () => ({ definition, commit: COMMIT }),
      definitions: async () => ({ commit: COMMIT, evaluations: [definition] }),
    },
    agent: {
      async ask(_p, { chatId, message, signal }) {
        calls.push(message);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          const out = await script(message, { chatId, signal });
          return { status: 'completed', sql: [], ...(typeof out === 'string' ? { text: out } : { text: '', ...out }) };
        } finally {
          inFlight--;
        }
      },
    },
    principals: { principalOf: async () => principal.current },
  };
  const evaluations = new Evaluations({ store: sqliteExecutor(store.db), clock, log: createLogger('silent'), ports, config: { concurrency, questionTimeoutMs }, shutdown: shutdown.signal });
  t.teardown(() => {
    shutdown.abort();
    if (store.db.open) store.close();
  });
  return { store, file: path, evaluations, shutdown, calls, inFlight: () => inFlight, maxInFlight: () => maxInFlight, principal, definition };
}

/** A latch: `wait()` resolves once `open()` was called. */
export function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open: () => open(), wait: () => opened };
}
