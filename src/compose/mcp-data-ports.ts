// The MCP ports the data plane answers: the catalog and governed queries. Both go through the same
// code as the REST endpoints (organization scope, guard, governed sources, row-level security, log).
import { getCatalog, executeQuery, type DataDeps } from '../data/index.ts';
import type { McpPorts } from '../mcp/ports.ts';

/** Catalog and run_query on the real data plane (production knowledge, no environment). */
export function dataMcpPorts(data: DataDeps): Pick<McpPorts, 'catalog' | 'runQuery'> {
  return {
    async catalog(principal) {
      const c = await getCatalog(data, principal, undefined, 50);
      return {
        capabilities: ['ask_question', 'get_result', 'search_knowledge', ...(c.capabilities.sql || principal.role === 'modeler' ? ['run_query'] : [])],
        connections: c.connections.map((x) => ({ id: x.id, type: x.type, name: x.name })),
        tables: c.top_tables.map((t) => {
          const dot = t.table.lastIndexOf('.');
          return {
            connection: t.connection_id,
            schema: dot > 0 ? t.table.slice(0, dot) : '',
            name: t.table.slice(dot + 1),
            description: t.description ?? '',
            columns: t.columns,
            metrics: t.metrics,
            ...(t.coverage ? { coverage: { first: t.coverage.first, last: t.coverage.last } } : {}),
            query_count: t.query_count,
          };
        }),
      };
    },
    async runQuery(principal, { connectionId, sql, rowLimit, signal }) {
      // Modelers are held to governed sources by the pipeline itself (stream-query.ts).
      const r = await executeQuery(data, { principal, environmentId: undefined, connectionId, sql, rowLimit, source: 'mcp', signal });
      return { columns: r.columns.map((col) => col.name), rows: r.rows, rowCount: r.rowCount, truncated: r.truncated, executionMs: r.executionTimeMs };
    },
  };
}
