// Examples of the main routes for the API reference, by operationId. The lint of the generated
// document (test/gateway/openapi-lint.test.ts) checks each one against its schema.

export interface OperationExample {
  /** Request body. */
  request?: unknown;
  /** Successful response body (JSON), or the text of a stream. */
  response?: unknown;
}

const CHAT_ID = '3f0c8a52-6d1e-4c4e-9a53-0b7c2a1d9e10';

/** Events of a run as stored; the stream sends each as `id`, `event` and `data` lines. */
const EVENTS: Record<string, unknown>[] = [
  { type: 'run_started', run_id: 'run_8d2f', chat_id: CHAT_ID, message_uuid: 'm_51a0', answer_uuid: 'a_77c3', model: 'claude-sonnet-4-5', environment: null },
  { type: 'tool_call', call_id: 'c1', name: 'run_sql', arguments: { connection_id: 'warehouse', sql: 'SELECT country, SUM(total_amount) AS revenue FROM orders GROUP BY 1' } },
  { type: 'text_delta', text: 'Germany leads with 41,200 EUR.' },
  { type: 'completed', status: 'completed', answer_uuid: 'a_77c3', content: 'Germany leads with 41,200 EUR.', credits: 3, usage: { input_tokens: 5120, output_tokens: 210, queries: 1 } },
];

/** The stream as the client reads it from event `from` (1-based): the retry hint, then the events. */
const stream = (from: number) =>
  ['retry: 2000\n\n', ...EVENTS.slice(from - 1).map((e, i) => `id: ${from + i}\nevent: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`)].join('');

export const EXAMPLES: Record<string, OperationExample> = {
  login_for_access_token: {
    request: { email: 'ada@example.com', password: 'correct horse battery staple' },
    response: { access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzEifQ.c2ln', token_type: 'bearer', expires_in: 86400 },
  },
  create_api_token: { request: { name: 'nightly report', description: 'cron on the reporting host', expires_in_days: 90 } },
  agentic_stream: { request: { chat_id: CHAT_ID, message: 'Revenue by country in 2024?' }, response: stream(1) },
  // After `Last-Event-ID: 2`.
  agentic_subscribe: { response: stream(3) },
  agentic_stop: { request: { chat_id: CHAT_ID }, response: { status: 'stopping', run_id: 'run_8d2f' } },
  agentic: { request: { chat_id: CHAT_ID, messages: [{ role: 'user', content: 'Revenue by country in 2024?' }] } },
  context_agent_execute_query: {
    request: { sql: 'SELECT country, COUNT(*) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC', connection_id: 'warehouse', row_limit: 100 },
    response: { csv_content: 'country,orders\r\nGermany,412\r\nFrance,287\r\n', summary: '2 rows, 2 columns', row_count: 2, column_count: 2, execution_time_ms: 38 },
  },
  import_dbt: {
    request: { connection_id: 'warehouse', manifest: { metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', project_name: 'jaffle_shop', generated_at: '2025-10-11T00:05:38Z' }, nodes: {} } },
    response: {
      environment_id: 'env_4d2102af61dc2ece',
      environment_created: true,
      project: 'jaffle_shop',
      generated_at: '2025-10-11T00:05:38Z',
      connection_id: 'warehouse',
      commit: 'c9c5138ba837b6dca8086cf2678605079326d3ba',
      counts: { tables: { created: 19, updated: 0, unchanged: 0, deleted: 0 }, relationships: { created: 6, updated: 0, unchanged: 0, deleted: 0 }, reports: { created: 2, updated: 0, unchanged: 0, deleted: 0 } },
      metrics: 15,
      skipped: [{ unique_id: 'metric.jaffle_shop.cumulative_revenue', reason: 'cumulative metric: a running total over periods is not one aggregate' }],
      conflicts: [],
    },
  },
};
