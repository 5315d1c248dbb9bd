import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Principal } from '../auth/index.ts';

/** What MCP tools may use; grows as tools are added. */
export interface McpContext {
  principal: Principal;
  version: string;
}

/** A fresh MCP server for one request, acting as the connected user. */
export function createMcpServer(ctx: McpContext): McpServer {
  return new McpServer(
    { name: 'sextant', version: ctx.version },
    { instructions: "Sextant answers questions about your organization's data with your own permissions." },
  );
}
