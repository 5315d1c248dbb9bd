// `sextant saved list|run`: saved questions, and their rows read again with the caller's permissions.
import { objectTable, table } from '../output.ts';
import type { CommandContext } from '../context.ts';

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
type Question = Record<string, unknown> & { id: string; title: string };

export async function savedList(ctx: CommandContext): Promise<void> {
  const res = await ctx.client.json<{ questions: Question[] }>('GET', '/api/saved_questions');
  print(ctx, res, () => (res.questions.length === 0 ? 'No saved questions yet.' : objectTable(res.questions, ['id', 'title', 'visibility', 'updated_at'])));
}

export async function savedRun(ctx: CommandContext, id: string): Promise<void> {
  const res = await ctx.client.json<{ columns: { name: string }[]; rows: unknown[][]; read_at: string; truncated: boolean }>('POST', `/api/saved_questions/${encodeURIComponent(id)}/run`);
  print(ctx, res, () =>
    [table(res.columns.map((c) => c.name), res.rows), `Data read at ${res.read_at}${res.truncated ? ' (the first rows only: the row limit)' : ''}`].join('\n\n'),
  );
}
