// `sextant admin audit`: the organization's audit log (admins), a page at a time or exported whole
// as JSON lines or CSV, streamed to a file (whole or not at all) or stdout.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadable } from 'node:stream/web';
import { CliError } from '../../errors.ts';
import { apiError } from '../../http.ts';
import { objectTable } from '../../output.ts';
import { writeWhole } from '../../whole-file.ts';
import type { CommandContext } from '../../context.ts';

export interface AuditOptions {
  actor?: string;
  action?: string;
  target?: string;
  outcome?: string;
  from?: string;
  to?: string;
  limit?: string;
  cursor?: string;
  export?: string;
  out?: string;
}

type Entry = Record<string, unknown> & { time: string; action: string; outcome: string; actor_email: string | null; actor_id: string | null; target_type: string | null; target_id: string | null; ip: string | null };

/** Lists a page of entries, or exports every matching one with --export jsonl|csv. */
export async function adminAudit(ctx: CommandContext, o: AuditOptions): Promise<void> {
  // --actor takes an email or a user id: an email names the actor as people know them.
  const actor = o.actor?.includes('@') ? { actor_email: o.actor } : { actor_id: o.actor };
  const filters = { ...actor, action: o.action, target_id: o.target, outcome: o.outcome, from: o.from, to: o.to };
  if (o.export !== undefined) return exportAudit(ctx, o.export, filters, o.out);
  const res = await ctx.client.json<{ entries: Entry[]; next_cursor: string | null }>('GET', '/api/admin/audit', { query: { ...filters, limit: o.limit, cursor: o.cursor } });
  if (ctx.out.json) return ctx.out.out(JSON.stringify(res));
  const rows = res.entries.map((e) => ({ ...e, actor: e.actor_email ?? e.actor_id, target: e.target_id ? `${e.target_type ?? ''}:${e.target_id}` : '' }));
  const more = res.next_cursor ? `\nMore: sextant admin audit --cursor ${res.next_cursor}` : '';
  ctx.out.out(rows.length === 0 ? 'No audit entries match.' : `${objectTable(rows, ['time', 'action', 'outcome', 'actor', 'target', 'ip'])}${more}`);
}

async function exportAudit(ctx: CommandContext, format: string, filters: Record<string, string | undefined>, out: string | undefined): Promise<void> {
  if (format !== 'jsonl' && format !== 'csv') throw new CliError('--export takes jsonl or csv', 2);
  const res = await ctx.client.raw('GET', '/api/admin/audit/export', { query: { ...filters, format }, headers: { accept: format === 'csv' ? 'text/csv' : 'application/x-ndjson' } });
  if (!res.ok) throw await apiError(res);
  if (!res.body) return;
  const body = Readable.fromWeb(res.body as unknown as WebReadable<Uint8Array>);
  if (out) {
    try {
      await writeWhole(body, out);
    } catch (err) {
      throw new CliError(`The audit export was cut before it ended (${(err as Error).message}); nothing was written. Run the command again.`);
    }
    ctx.out.progress(`Audit log written to ${out}\n`);
  } else {
    await pipeline(body, process.stdout, { end: false });
  }
}
