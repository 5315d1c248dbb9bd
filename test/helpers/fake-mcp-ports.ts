// In-memory twins of the MCP ports: data per organization, chats per user, every call recorded,
// so tests can check that tools act as the connected principal and never cross organizations.
import type { Principal } from '../../src/auth/index.ts';
import { NotFound } from '../../src/errors.ts';
import type { ChatResult, McpPorts } from '../../src/mcp/ports.ts';

export interface FakePorts extends McpPorts {
  calls: { method: string; userId: string; orgId: string; input?: unknown }[];
  /** Finishes a running chat with an answer, a table and a chart. */
  complete(chatId: string): void;
}

/** Fake ports; each organization sees a table named after itself. */
export function fakeMcpPorts(): FakePorts {
  const chats = new Map<string, { owner: string; result: ChatResult }>();
  const calls: FakePorts['calls'] = [];
  let n = 0;
  const record = (method: string, p: Principal, input?: unknown) => calls.push({ method, userId: p.userId, orgId: p.orgId, input });
  const key = (p: Principal) => `${p.orgId}/${p.userId}`;
  return {
    calls,
    complete(chatId) {
      const chat = chats.get(chatId)!;
      chat.result = {
        status: 'completed',
        chatId,
        answer: `Revenue is up (${chat.owner}).`,
        tables: [{ name: 'revenue', columns: ['country', 'revenue'], rows: [['France', 10.5], ['United States, "US"', 20]], sql: 'SELECT country, SUM(total_amount) AS revenue FROM orders GROUP BY 1' }],
        queries: [{ connectionId: `${chat.owner.split('/')[0]}_warehouse`, sql: 'SELECT country, SUM(total_amount) AS revenue FROM orders GROUP BY 1', ok: true }],
        charts: [{ title: 'Revenue', png: Buffer.from('png').toString('base64') }, { title: 'Spec only', spec: { mark: 'bar' } }],
      };
    },
    async catalog(p) {
      record('catalog', p);
      return {
        capabilities: ['ask_question'],
        connections: [{ id: `${p.orgId}_warehouse`, type: 'duckdb', name: `${p.orgId} warehouse` }],
        tables: [
          {
            connection: `${p.orgId}_warehouse`,
            schema: 'main',
            name: `${p.orgId}_orders`,
            description: `Orders of ${p.orgId}`,
            columns: [{ name: 'total_amount', type: 'DECIMAL(12,2)' }],
            metrics: [{ name: 'revenue', description: 'Completed orders', expression: 'SUM(total_amount)' }],
            query_count: 0,
          },
        ],
      };
    },
    async askQuestion(p, input) {
      record('askQuestion', p, input);
      if (input.chatId && chats.get(input.chatId)?.owner !== key(p)) throw new NotFound('Chat not found', 'CHAT_NOT_FOUND');
      const chatId = input.chatId ?? `chat${++n}`;
      chats.set(chatId, { owner: key(p), result: { status: 'running', chatId, progress: 'querying' } });
      return { chatId };
    },
    async getResult(p, chatId) {
      record('getResult', p, chatId);
      const chat = chats.get(chatId);
      return chat && chat.owner === key(p) ? chat.result : { status: 'not_found', chatId };
    },
    async searchKnowledge(p, input) {
      record('searchKnowledge', p, input);
      return [{ kind: 'note', id: `${p.orgId}-revenue`, title: `Revenue in ${p.orgId}`, snippet: input.query }];
    },
    async runQuery(p, input) {
      record('runQuery', p, input);
      return { columns: ['org', 'n'], rows: [[p.orgId, 1]], rowCount: 1, truncated: false, executionMs: 3 };
    },
  };
}
