import type { Principal } from '../../auth/index.ts';
import type { Logger } from '../../log.ts';
import type { McpPorts } from '../ports.ts';

/** What MCP tools may use. */
export interface McpContext {
  principal: Principal;
  version: string;
  ports: McpPorts;
  log: Logger;
  /**
   * Aborts when the HTTP exchange that carries this request closes early. A stateless server never
   * sees the client's `notifications/cancelled` (it arrives in another request), but it does see
   * the connection go: long tools (run_query) stop their work with either.
   */
  closed?: AbortSignal;
  /** Waits `ms` or until aborted; injectable so tests never sleep. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}
