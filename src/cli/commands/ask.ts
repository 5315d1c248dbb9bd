// `sextant ask "question"`: streams a run, prints the answer, and writes its data and charts to files.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../errors.ts';
import { apiError } from '../http.ts';
import { toCsv } from '../../shared/csv.ts';
import { table } from '../output.ts';
import { followSse, StreamLost } from '../sse.ts';
import type { CommandContext } from '../context.ts';

/** The parts of the run's events the CLI uses; unknown event types are ignored. */
interface RunEvent {
  type: string;
  text?: string;
  delta?: string;
  sql?: string;
  name?: string;
  df_key?: string;
  columns?: (string | { name: string })[];
  rows?: unknown[][];
  spec?: unknown;
  message?: string;
  content?: string;
  status?: string;
  credits?: number;
}

interface Answer {
  chat_id: string;
  answer: string;
  sql: string[];
  tables: { df_key?: string; columns: string[]; preview: unknown[][]; file?: string }[];
  charts: { title?: string; file: string }[];
  follow_ups: string[];
  credits?: number;
  error?: string;
}

/** Where answers' files go: `--out`, else `$SEXTANT_OUTPUT_DIR`, else `./sextant-output`, one folder per chat. */
export function outputDir(ctx: CommandContext, chatId: string, out?: string): string {
  return resolve(out ?? ctx.env['SEXTANT_OUTPUT_DIR'] ?? 'sextant-output', chatId);
}

export async function ask(ctx: CommandContext, question: string, opts: { chat?: string; out?: string }): Promise<void> {
  const { client, out } = ctx;
  const chatId = opts.chat ?? randomUUID();
  const res = await client.raw('POST', '/api/agentic/stream', { body: { chat_id: chatId, message: question }, headers: { accept: 'text/event-stream' } });
  if (!res.ok || !res.body) throw await apiError(res);
  const stop = () => {
    out.progress('\nStopping: the agent wraps up with a summary...\n');
    void client.raw('POST', '/api/agentic/stop', { body: { chat_id: chatId } });
  };
  process.once('SIGINT', stop);
  const answer: Answer = { chat_id: chatId, answer: '', sql: [], tables: [], charts: [], follow_ups: [] };
  try {
    // A dropped stream resumes on the subscribe route after the last event received: the run goes on.
    const reopen = (lastEventId: string | undefined) =>
      client.raw('GET', `/api/agentic/subscribe/${encodeURIComponent(chatId)}`, { headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } });
    const onReconnect = (attempt: number) => out.progress(`… the stream dropped, reconnecting (${attempt})\n`);
    for await (const sse of followSse(res, { reopen, onReconnect, isLast: (e) => e.event === 'completed' })) handle(ctx, answer, JSON.parse(sse.data) as RunEvent);
  } catch (err) {
    throw err instanceof StreamLost ? new CliError(`${err.message}; the run goes on in chat ${chatId}.`) : err;
  } finally {
    process.off('SIGINT', stop);
  }
  await writeFiles(ctx, answer, outputDir(ctx, chatId, opts.out));
  answer.follow_ups = await followUps(ctx, question);
  if (out.json) out.out(JSON.stringify(answer));
  else printAnswer(ctx, answer);
  if (answer.error) throw new CliError(`The run failed: ${answer.error}`, 1);
}

function handle(ctx: CommandContext, a: Answer, ev: RunEvent): void {
  switch (ev.type) {
    case 'text_delta':
      a.answer += ev.text ?? '';
      return;
    case 'tool_call':
      ctx.out.progress(`… ${ev.name ?? 'working'}\n`);
      return;
    case 'sql':
      if (ev.sql) a.sql.push(ev.sql);
      return;
    case 'table':
      a.tables.push({ ...(ev.df_key ? { df_key: ev.df_key } : {}), columns: (ev.columns ?? []).map((c) => (typeof c === 'string' ? c : c.name)), preview: (ev.rows ?? []).slice(0, 10) });
      return;
    case 'chart': {
      const title = (ev.spec as { title?: unknown } | undefined)?.title;
      a.charts.push({ ...(typeof title === 'string' ? { title } : {}), file: JSON.stringify(ev.spec ?? {}, null, 2) });
      return;
    }
    case 'error':
      a.error = ev.message ?? 'unknown error';
      return;
    case 'completed':
      a.credits = ev.credits;
      if (ev.content) a.answer = ev.content;
      if (ev.status === 'failed') a.error ??= 'the agent could not answer';
      return;
  }
}

async function writeFiles(ctx: CommandContext, a: Answer, dir: string): Promise<void> {
  if (a.tables.length === 0 && a.charts.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const [i, t] of a.tables.entries()) {
    const file = join(dir, `data-${i + 1}.csv`);
    const res = t.df_key ? await ctx.client.raw('GET', '/api/download_big_csv_agentic', { query: { chat_id: a.chat_id, df_key: t.df_key } }) : undefined;
    // Without a download (no df_key, or refused), keep at least the preview the stream carried.
    writeFileSync(file, res?.ok ? Buffer.from(await res.arrayBuffer()) : toCsv(t.columns, t.preview));
    t.file = file;
  }
  a.charts = a.charts.map((c, i) => {
    const file = join(dir, `chart-${i + 1}.vl.json`);
    writeFileSync(file, c.file);
    return { ...c, file };
  });
}

/** Suggested next questions: the service's suggestions for this user, without the one just asked. */
async function followUps(ctx: CommandContext, question: string): Promise<string[]> {
  const res = await ctx.client.raw('GET', '/api/get_initial_suggestions');
  if (!res.ok) return [];
  const { suggestions } = (await res.json()) as { suggestions: { text: string }[] };
  return suggestions.map((s) => s.text).filter((t) => t.trim().toLowerCase() !== question.trim().toLowerCase()).slice(0, 3);
}

function printAnswer(ctx: CommandContext, a: Answer): void {
  const parts = [a.answer.trim()];
  if (a.sql.length) parts.push(`SQL:\n${a.sql.map((s) => `  ${s.replace(/\n/g, '\n  ')}`).join('\n\n')}`);
  for (const t of a.tables) parts.push(`${table(t.columns, t.preview)}${t.file ? `\nFull data: ${t.file}` : ''}`);
  for (const c of a.charts) parts.push(`Chart${c.title ? ` "${c.title}"` : ''}: ${c.file}`);
  if (a.follow_ups.length) parts.push(`You could also ask:\n${a.follow_ups.map((f) => `  - ${f}`).join('\n')}`);
  parts.push(`Chat: ${a.chat_id}${a.credits !== undefined ? `  ·  credits: ${a.credits}` : ''}  (continue with --chat ${a.chat_id})`);
  ctx.out.out(parts.filter(Boolean).join('\n\n'));
}
