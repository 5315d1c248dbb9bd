// One question to the offline model, in process, over the agent test warehouse and its knowledge
// (agent-warehouse.ts): the run's result and every event it emitted. The clock stands on 2026-01-15:
// "last month" is December 2025, "this year" is 2026.
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import type { LlmMessage } from '../../src/agent/index.ts';
import { runAgentLoop } from '../../src/agent/loop/run-agent.ts';
import { memoryChats, memoryKnowledge, noUploads } from '../../src/agent/memory-ports.ts';
import { offlineProvider } from '../../src/agent/offline/offline-provider.ts';
import { DEFAULT_TOOLS, newRunState } from '../../src/agent/tools/index.ts';
import { relationshipDocs, tableDocs, type TestWarehouse } from './agent-warehouse.ts';

const clock = new FakeClock(Date.UTC(2026, 0, 15, 12));
const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'demo', baseOrgId: 'demo', role: 'user', permissions: [], credential: 'session', scopes: [] };

/** Asks `question` after `earlier` questions of the same chat (each answered), over the warehouse's knowledge or `tables`. */
export async function askOffline(wh: TestWarehouse, question: string, earlier: string[] = [], tables = tableDocs()) {
  const events: AgentEvent[] = [];
  const ports = { knowledge: memoryKnowledge({ tables, relationships: relationshipDocs() }), queries: wh.runner, uploads: noUploads, chats: memoryChats(), profiles: { profile: async () => ({ name: '', background: '', memories: [] }) } };
  const messages: LlmMessage[] = [...earlier.flatMap((q): LlmMessage[] => [{ role: 'user', content: q }, { role: 'assistant', content: 'Answered.' }]), { role: 'user', content: question }];
  const result = await runAgentLoop({
    provider: offlineProvider({ clock }),
    tools: DEFAULT_TOOLS,
    system: 'test',
    messages,
    toolContext: { principal, environmentId: undefined, chatId: 'c', ports, rowLimit: 1000, state: newRunState(), emit: (e) => events.push(e) },
    maxSteps: 8,
    toolTimeoutMs: 5000,
    signal: new AbortController().signal,
    control: { takeFeedback: () => [], stopRequested: () => false, stopSignal: new AbortController().signal },
    emit: (e) => events.push(e),
  });
  return { result, events };
}
