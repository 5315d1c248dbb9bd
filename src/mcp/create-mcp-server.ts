import { McpServer } from '@modelcontextprotocol/server';
import type { McpContext } from './tools/context.ts';
import { registerAskQuestionTool } from './tools/ask-question.ts';
import { registerCatalogTool } from './tools/catalog.ts';
import { registerGetResultTool } from './tools/get-result.ts';
import { registerResultTableResource } from './resources/result-table.ts';
import { registerRunQueryTool } from './tools/run-query.ts';
import { registerSearchKnowledgeTool } from './tools/search-knowledge.ts';
import { registerWaitTool } from './tools/wait.ts';

/** Real waiting, cut short by the request's abort signal. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** A fresh MCP server for one request, acting as the connected user. */
export function createMcpServer(ctx: Omit<McpContext, 'sleep'> & { sleep?: McpContext['sleep'] }): McpServer {
  const c: McpContext = { ...ctx, sleep: ctx.sleep ?? sleep };
  const server = new McpServer(
    { name: 'sextant', version: c.version },
    {
      instructions:
        "Sextant answers questions about your organization's data with your own permissions. Start with catalog, ask with ask_question, then poll get_result (with wait in between).",
    },
  );
  registerCatalogTool(server, c);
  registerAskQuestionTool(server, c);
  registerGetResultTool(server, c);
  registerWaitTool(server, c);
  registerSearchKnowledgeTool(server, c);
  registerRunQueryTool(server, c);
  registerResultTableResource(server, c);
  return server;
}
