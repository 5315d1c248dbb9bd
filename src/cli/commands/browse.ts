// `sextant chats ...`, `catalog`, `help`: read-only views of the service.
import { dateTime, objectTable } from '../output.ts';
import type { CommandContext } from '../context.ts';

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
type Chat = Record<string, unknown> & { chat_id: string; title?: string };

export async function chatsList(ctx: CommandContext, opts: { limit?: string; cursor?: string }): Promise<void> {
  const res = await ctx.client.json<{ chats?: Chat[]; next_cursor?: string | null }>('GET', '/api/chat_history', { query: { limit: opts.limit, cursor: opts.cursor } });
  // Dates for people; --json keeps the API's milliseconds for programs.
  const chats = (res.chats ?? []).map((c) => ({ ...c, updated: dateTime(c['updated_at']) }));
  print(ctx, res, () => `${objectTable(chats, ['chat_id', 'title', 'updated'])}${res.next_cursor ? `\nMore: sextant chats list --cursor ${res.next_cursor}` : ''}`);
}

export async function chatsShow(ctx: CommandContext, chatId: string): Promise<void> {
  const res = await ctx.client.json<{ messages?: { role: string; content: string }[] }>('GET', `/api/c2/${encodeURIComponent(chatId)}`, { query: { include_all: true } });
  print(ctx, res, () => (res.messages ?? []).map((m) => `${m.role === 'user' ? '>' : ' '} ${m.content}`).join('\n\n'));
}

export async function chatsSearch(ctx: CommandContext, q: string, opts: { limit?: string }): Promise<void> {
  const res = await ctx.client.json<{ results?: (Chat & { snippet?: string })[] }>('GET', '/api/search_chats', { query: { q, limit: opts.limit } });
  const results = res.results ?? [];
  print(ctx, res, () => (results.length === 0 ? 'No chats match.' : results.map((r) => `${r.chat_id}  ${r.title ?? ''}\n    ${r.snippet ?? ''}`).join('\n')));
}

type CatalogTable = { connection_id: string; table: string; query_count: number; description?: string; metrics?: { name: string }[] } & Record<string, unknown>;

export async function catalog(ctx: CommandContext): Promise<void> {
  const res = await ctx.client.json<{ connections?: Record<string, unknown>[]; top_tables?: CatalogTable[] }>('GET', '/api/cli/catalog');
  const tables = (res.top_tables ?? []).map((t) => ({ ...t, queries: t.query_count, metrics: (t.metrics ?? []).map((m) => m.name).join(', ') }));
  print(ctx, res, () =>
    [
      `Connections:\n${objectTable(res.connections ?? [], ['id', 'name', 'type'])}`,
      tables.length === 0 ? 'No documented tables yet.' : `Tables (most used first):\n${objectTable(tables, ['connection_id', 'table', 'queries', 'metrics', 'description'])}`,
    ].join('\n\n'),
  );
}

export async function help(ctx: CommandContext, question: string): Promise<void> {
  const res = await ctx.client.json<{ answer: string; sources?: { title: string }[] }>('GET', '/api/cli/help', { query: { q: question } });
  print(ctx, res, () => `${res.answer}${res.sources?.length ? `\n\nSources: ${res.sources.map((s) => s.title).join('; ')}` : ''}`);
}
