// A test gateway whose agent reads the test warehouse and in-memory knowledge and chats.
import type { UserRow } from '../../src/auth/index.ts';
import { memoryChats, memoryKnowledge } from '../../src/agent/memory-ports.ts';
import type { LlmProvider, QueryRequest } from '../../src/agent/index.ts';
import { startTestApp, type TestApp } from './app.ts';
import { relationshipDocs, startWarehouse, tableDocs, type TestWarehouse } from './agent-warehouse.ts';

export interface AgentTestApp extends TestApp {
  wh: TestWarehouse;
  chats: ReturnType<typeof memoryChats>;
  /** Holds the next queries until `release()` (one waiter per query). */
  hold(): void;
  release(): void;
  /** Resolves when a held query is waiting. */
  queryWaiting(): Promise<void>;
  /** POST JSON as a user. */
  post(path: string, user: UserRow, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Starts the gateway with the agent wired to a fresh test warehouse. */
export async function startAgentApp(env: Record<string, string> = {}, llmProvider?: LlmProvider): Promise<AgentTestApp> {
  let held = false;
  const waiters: (() => void)[] = [];
  const waiting: (() => void)[] = [];
  const gate = async (_req: QueryRequest) => {
    if (!held) return;
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      for (const w of waiting.splice(0)) w();
    });
  };
  const wh = await startWarehouse(gate);
  const chats = memoryChats();
  const t = await startTestApp(env, {
    agentPorts: () => ({ knowledge: memoryKnowledge({ tables: tableDocs(), relationships: relationshipDocs(), environments: { 'env-q4': 'Q4 metrics' } }), queries: wh.runner, chats }),
    ...(llmProvider ? { llmProvider } : {}),
  });
  const sessions = new Map<string, string>();
  const stopApp = t.stop;
  return Object.assign(t, {
    wh,
    chats,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const w of waiters.splice(0)) w();
    },
    queryWaiting: () => (waiters.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    post: (path: string, user: UserRow, body: unknown, headers: Record<string, string> = {}) => {
      let session = sessions.get(user.id);
      if (!session) sessions.set(user.id, (session = t.session(user)));
      return t.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session}`, ...headers }, body: JSON.stringify(body) });
    },
    stop: async () => {
      await stopApp();
      await wh.close();
    },
  });
}
