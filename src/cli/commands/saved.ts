// `sextant saved list|run`: saved questions, and their rows read again with the caller's permissions.
import { objectTable, table } from '../output.ts';
import type { CommandContext } from '../context.ts';

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
type Question = Record<string, unknown> & { id: string; title: string };

/** Every question the caller sees, or those whose title or description holds `search`. */
export async function savedList(ctx: CommandContext, search = ''): Promise<void> {
  const res = await ctx.client.json<{ questions: Question[] }>('GET', `/api/saved_questions${search ? `?${new URLSearchParams({ q: search }).toString()}` : ''}`);
  const none = search ? `No saved question matches "${search}".` : 'No saved questions yet.';
  print(ctx, res, () => (res.questions.length === 0 ? none : objectTable(res.questions, ['id', 'title', 'visibility', 'updated_at'])));
}

export async function savedRun(ctx: CommandContext, id: string): Promise<void> {
  const res = await ctx.client.json<{ columns: { name: string }[]; rows: unknown[][]; read_at: string; truncated: boolean }>('POST', `/api/saved_questions/${encodeURIComponent(id)}/run`);
  print(ctx, res, () =>
    [table(res.columns.map((c) => c.name), res.rows), `Data read at ${res.read_at}${res.truncated ? ' (the first rows only: the row limit)' : ''}`].join('\n\n'),
  );
}
