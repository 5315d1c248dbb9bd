// Stand-ins until the composition root wires the data plane, the agent and knowledge: each tool
// then answers with a clear "not available" tool error instead of failing obscurely.
import { AppError } from '../../src/errors.ts';
import type { McpPorts } from '../../src/mcp/ports.ts';

const unavailable = async (): Promise<never> => {
  throw new AppError('unavailable', 'MCP_CAPABILITY_UNAVAILABLE', 'This capability is not available on this server yet');
};

/** Ports that refuse every call. */
export const unwiredMcpPorts: McpPorts = {
  catalog: unavailable,
  askQuestion: unavailable,
  getResult: unavailable,
  searchKnowledge: unavailable,
  runQuery: unavailable,
};
