// Shared shapes of tool results: structured content plus a text rendering, and failures as tool
// errors the model can read (never protocol errors, which clients show as crashes).
import type { CallToolResult } from '@modelcontextprotocol/server';
import { AppError } from '../../errors.ts';
import type { Logger } from '../../log.ts';

/** A successful result carrying `structured` both as structured content and as JSON text. */
export function structured(structuredContent: Record<string, unknown>, extra: CallToolResult['content'] = []): CallToolResult {
  return { structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }, ...extra] };
}

/** A tool error the model can act on. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Runs a tool body; expected failures become tool errors with their message, others a generic one. */
export async function safely(log: Logger, tool: string, fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    const result = await fn();
    log.info({ tool, is_error: result.isError === true }, 'mcp tool call');
    return result;
  } catch (err) {
    if (err instanceof AppError) {
      log.info({ tool, is_error: true, error_code: err.code }, 'mcp tool call');
      return toolError(`${err.message} (${err.code})`);
    }
    log.error({ err, tool }, 'mcp tool failed');
    return toolError('The tool failed unexpectedly; try again later.');
  }
}
