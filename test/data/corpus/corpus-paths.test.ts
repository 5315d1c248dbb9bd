// A sample of the SQL corpora through each HTTP path that takes SQL: POST /api/execute_query (a
// regular user), POST /api/context-agent/execute-query and MCP run_query (a modeler), the agent's
// run_sql (POST /api/agentic with a scripted model that runs the question's SQL) and the agentic CSV
// download (which runs the answer's SQL again as the downloader). Everyone's row filter applies. The
// full corpora run through the function these paths share in corpus-governed.test.ts; here every 8th
// entry per dialect and path keeps the file fast while each path meets each class.
import test from 'ava';
import type { UserRow } from '../../../src/auth/index.ts';
import { openAiProvider } from '../../../src/agent/providers/openai-provider.ts';
import { seedChat, principalOf } from '../../helpers/chats.ts';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../../helpers/llm-servers.ts';
import { directRows, extraRows, setUpCorpus, type CorpusSetup, type CorpusWarehouse } from './corpus-setup.ts';
import { DIALECTS, HIDDEN_MARKERS, loadCorpus, type CorpusEntry } from './corpus-warehouse.ts';

type Msg = { role: string; content?: string | null };
const QUESTION = /^corpus (\S+) (.*)$/s;

// A model that runs the SQL written in the question, then answers with one sentence.
const model = (body: Record<string, unknown>): ScriptedReply => {
  const messages = body['messages'] as Msg[];
  const question = QUESTION.exec(String(messages.filter((m) => m.role === 'user').at(-1)?.content ?? ''));
  if (!body['tools'] || messages.some((m) => m.role === 'tool') || !question) return { text: 'Done.', usage: { input: 10, output: 2 } };
  return { toolCalls: [{ id: 'c1', name: 'run_sql', args: { connection_id: question[1], sql: question[2] } }], usage: { input: 10, output: 2 } };
};

let c: CorpusSetup;
let llm: ScriptedServer;
let mcpKey = '';
test.before(async () => {
  llm = await startScriptedServer('openai', model);
  c = await setUpCorpus({}, { llmProvider: openAiProvider({ model: 'scripted', apiKey: 'k', baseUrl: llm.url, maxRetries: 0 }) });
  mcpKey = c.app.token(c.modeler, 'mcp');
});
test.after.always(async () => {
  await c?.close();
  await llm?.close();
});

/** What one path answered: rows (JSON paths) or CSV text, or a refusal; `status` for 5xx. */
type Answer = { status: number; rows?: unknown[][]; csv?: string; refused: boolean; text: string };

const json = async (res: Response) => (await res.json().catch(() => ({}))) as Record<string, unknown>;
const post = (path: string, user: UserRow, body: unknown) =>
  c.app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${c.app.session(user)}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

let seq = 0;
const PATHS: Record<string, (w: CorpusWarehouse, sql: string) => Promise<Answer>> = {
  async execute_query(w, sql) {
    const res = await post('/api/execute_query', c.german, { sql, connection_id: w.connectionId });
    const body = await json(res);
    return { status: res.status, ...(res.ok ? { rows: body['rows'] as unknown[][] } : {}), refused: body['code'] === 'QUERY_REFUSED', text: JSON.stringify(body) };
  },
  async context_agent(w, sql) {
    const res = await post('/api/context-agent/execute-query', c.modeler, { sql, connection_id: w.connectionId });
    const body = await json(res);
    return { status: res.status, ...(res.ok ? { csv: String(body['csv_content']) } : {}), refused: body['code'] === 'QUERY_REFUSED', text: JSON.stringify(body) };
  },
  async mcp_run_query(w, sql) {
    const res = await c.app.fetch('/ai/mcp', {
      method: 'POST',
      headers: { 'X-API-KEY': mcpKey, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++seq, method: 'tools/call', params: { name: 'run_query', arguments: { connection_id: w.connectionId, sql } } }),
    });
    const text = await res.text();
    const msg = JSON.parse(text.startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? '{}')) as { result?: { isError?: boolean; structuredContent?: { csv: string }; content?: { text: string }[] }; error?: { code: number } };
    const failed = msg.result?.isError === true;
    const status = res.status >= 500 || msg.error?.code === -32603 || /unexpectedly/.test(JSON.stringify(msg)) ? 500 : res.status;
    return { status, ...(!failed && msg.result ? { csv: msg.result.structuredContent!.csv } : {}), refused: failed && /QUERY_REFUSED/.test(JSON.stringify(msg)), text: JSON.stringify(msg) };
  },
  async agent_run_sql(w, sql) {
    const res = await post('/api/agentic', c.german, { chat_id: `corpus-agent-${++seq}`, messages: [{ role: 'user', content: `corpus ${w.connectionId} ${sql}` }] });
    const body = await json(res);
    const ok = (body['sql'] as { ok: boolean }[] | undefined)?.[0]?.ok === true;
    const rows = (body['tables'] as { rows: unknown[][] }[] | undefined)?.[0]?.rows;
    const refused = !ok && c.app.app.services.store.sqlite!.prepare("SELECT status FROM query_log WHERE user_id = ? AND source = 'agent' ORDER BY rowid DESC LIMIT 1").pluck().get(c.german.id) === 'refused';
    return { status: res.status, ...(ok && rows ? { rows } : {}), refused, text: JSON.stringify(body) };
  },
  async download_csv(w, sql) {
    const chat = `corpus-dl-${++seq}`;
    await seedChat(c.app, principalOf(c.app, c.german, c.org), chat, [{ question: 'q', answer: 'a', answerData: { tables: [{ df_key: 'df', sql, connection_id: w.connectionId, dialect: w.dialect }] } }]);
    // DuckDB's CSV writer runs once the download has started: a query failing there (a cast error
    // over the rows) ends the connection without a status. Counted as not answered (and reported).
    const res = await c.app.fetch(`/api/download_big_csv_agentic?chat_id=${chat}&df_key=df`, { headers: { authorization: `Bearer ${c.app.session(c.german)}` } }).catch(() => undefined);
    const text = await res?.text().catch(() => undefined);
    if (!res || text === undefined) return { status: 0, refused: false, text: 'download aborted' };
    return { status: res.status, ...(res.ok ? { csv: text } : {}), refused: /QUERY_REFUSED/.test(text), text };
  },
};

const executed = (connectionId: string, sql: string) =>
  (c.app.app.services.store.sqlite!.prepare("SELECT count(*) FROM query_log WHERE connection_id = ? AND sql = ? AND status <> 'refused'").pluck().get(connectionId, sql) as number) > 0;
/** For a statement the warehouse stops (class recursion): it ran, and every run ended with `code`. */
const stoppedWith = (connectionId: string, sql: string, code: string) =>
  (c.app.app.services.store.sqlite!.prepare("SELECT count(*) FROM query_log WHERE connection_id = ? AND sql = ? AND (status = 'ok' OR coalesce(error_code, '') <> ?)").pluck().get(connectionId, sql, code) as number) === 0;
const sample = (entries: CorpusEntry[]) => entries.filter((_, i) => i % 8 === 0);
const csvRows = (csv: string) => csv.split(/\r?\n/).filter(Boolean).length - 1;
const hidden = (text: string) => HIDDEN_MARKERS.some((m) => text.includes(m));

for (const [path, call] of Object.entries(PATHS)) {
  for (const dialect of DIALECTS) {
    test.serial(`${path} on ${dialect}: sampled valid queries answer as the oracle, hostile ones are refused, escapes show nothing hidden`, async (t) => {
      const w = c.warehouses.find((x) => x.dialect === dialect);
      if (!w) return t.log(`${dialect} is not reachable here; skipped (CI runs it)`), t.pass();
      const problems: string[] = [];
      let fives = 0;
      let aborted = 0;
      for (const e of sample(loadCorpus('valid', dialect))) {
        const a = await call(w, e.sql);
        if (a.status >= 500) fives++;
        if (!a.rows && a.csv === undefined) {
          problems.push(`valid ${e.id} not answered: ${a.text.slice(0, 200)}`);
          continue;
        }
        const expected = await directRows(w.oracle, e.sql);
        if (e.compare && a.rows && extraRows(a.rows, expected).length + extraRows(expected, a.rows).length > 0) problems.push(`valid ${e.id} differs from the oracle`);
        if (e.compare && a.csv !== undefined && csvRows(a.csv) !== expected.length) problems.push(`valid ${e.id}: ${csvRows(a.csv)} rows, the oracle ${expected.length}`);
      }
      for (const e of sample(loadCorpus('hostile', dialect))) {
        const a = await call(w, e.sql);
        if (a.status >= 500) fives++;
        // Executed means it reached the warehouse: logged as run or failed there, not as refused.
        if (e.expect !== 'QUERY_REFUSED') {
          if (a.rows || a.csv !== undefined || !stoppedWith(w.connectionId, e.sql, e.expect)) problems.push(`hostile ${e.class} not stopped with ${e.expect}: ${e.sql} -> ${a.text.slice(0, 200)}`);
        } else if (executed(w.connectionId, e.sql)) problems.push(`hostile ${e.class} executed: ${e.sql} -> ${a.text.slice(0, 200)}`);
      }
      for (const e of sample(loadCorpus('escapes', dialect))) {
        const a = await call(w, e.sql);
        if (a.status >= 500) fives++;
        if (a.status === 0) aborted++;
        if (hidden(a.text)) problems.push(`escape ${e.class} shows a hidden value: ${e.sql}`);
        if (!a.rows && a.csv === undefined) continue;
        const expected = await directRows(w.oracle, e.sql).catch(() => [] as unknown[][]);
        if (a.rows && extraRows(a.rows, expected).length > 0) problems.push(`escape ${e.class} answered rows beyond the oracle: ${e.sql}`);
        if (a.csv !== undefined && csvRows(a.csv) > expected.length) problems.push(`escape ${e.class} answered more rows than the oracle: ${e.sql}`);
      }
      t.log(`${path} on ${dialect}: problems ${problems.length}, 5xx ${fives}, downloads aborted by the warehouse ${aborted}`);
      t.deepEqual(problems, []);
      t.is(fives, 0);
    });
  }
}
