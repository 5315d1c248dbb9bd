import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { McpContext } from '../tools/context.ts';
import type { ChatResult } from '../ports.ts';
import { toCsv } from '../tools/csv.ts';

const TEMPLATE = 'sextant://chats/{chat_id}/tables/{index}.csv';

/** The URI get_result gives the `index`-th table of a chat's answer. */
export function resultTableUri(chatId: string, index: number): string {
  return `sextant://chats/${encodeURIComponent(chatId)}/tables/${index}.csv`;
}

/**
 * `resources/read` of a table URI from get_result: the same CSV, read through the same port and so
 * under the same rule (the caller's own chats only; anyone else's chat, or a table that is not
 * there, is "not found" without telling which).
 */
export function registerResultTableResource(server: McpServer, c: McpContext): void {
  server.registerResource(
    'result_table',
    new ResourceTemplate(TEMPLATE, { list: undefined }),
    { title: 'A result table of an answer', description: 'A table of a completed answer as CSV, as get_result names it.', mimeType: 'text/csv' },
    async (uri, variables) => {
      const chatId = decodeURIComponent(String(variables['chat_id']));
      const index = Number(variables['index']);
      const result: ChatResult = Number.isInteger(index) && index >= 0 ? await c.ports.getResult(c.principal, chatId) : { status: 'not_found', chatId };
      const table = result.status === 'completed' ? result.tables[index] : undefined;
      c.log.info({ resource: 'result_table', found: table !== undefined }, 'mcp resource read');
      if (!table) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, mimeType: 'text/csv', text: toCsv(table.columns, table.rows) }] };
    },
  );
}
