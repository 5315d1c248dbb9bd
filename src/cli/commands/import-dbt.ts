// `sextant import dbt`: posts dbt's target folder (manifest.json, and catalog.json when there) to the
// import, into the active environment or a new one, and prints the summary.
import { existsSync, openAsBlob } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '../context.ts';
import { CliError } from '../errors.ts';
import { apiError } from '../http.ts';

type Counts = Record<string, { created: number; updated: number; unchanged: number; deleted: number }>;
interface Summary {
  environment_id: string;
  environment_created: boolean;
  commit: string | null;
  counts: Counts;
  metrics: number;
  skipped: { unique_id: string; reason: string }[];
  conflicts: { path: string; reason: string }[];
}

/** The connection to import into: the one named, or the organization's only one. */
async function connectionOf(ctx: CommandContext, named: string | undefined): Promise<string> {
  if (named) return named;
  // The catalog lists the organization's connections to every role (the connection admin routes are for admins).
  const { connections } = await ctx.client.json<{ connections: { id: string }[] }>('GET', '/api/cli/catalog');
  if (connections.length === 1) return connections[0]!.id;
  throw new CliError(`Name the connection with --connection <id> (the organization has ${connections.length}: ${connections.map((c) => c.id).join(', ') || 'none'}).`, 2);
}

function human(s: Summary): string {
  const lines = [`${s.environment_created ? 'Created' : 'Imported into'} environment ${s.environment_id}${s.commit ? ` (commit ${s.commit.slice(0, 12)})` : ' (nothing changed)'}.`];
  for (const [kind, c] of Object.entries(s.counts)) lines.push(`  ${kind.padEnd(14)} ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.deleted} deleted`);
  lines.push(`  governed metrics ${s.metrics}`);
  if (s.conflicts.length > 0) lines.push(`Conflicts (edited after the last import, left as they are):`, ...s.conflicts.map((c) => `  ${c.path}: ${c.reason}`));
  if (s.skipped.length > 0) lines.push(`Skipped ${s.skipped.length}:`, ...s.skipped.slice(0, 20).map((k) => `  ${k.unique_id}: ${k.reason}`), ...(s.skipped.length > 20 ? [`  ... and ${s.skipped.length - 20} more (--json lists all)`] : []));
  lines.push(`Review it with \`sextant env diff --id ${s.environment_id}\`, then merge.`);
  return lines.join('\n');
}

/** Imports `<target-dir>/manifest.json` (and catalog.json) into the active environment, or a new one. */
export async function importDbt(ctx: CommandContext, opts: { targetDir?: string; connection?: string }): Promise<void> {
  const dir = opts.targetDir ?? 'target';
  const manifest = join(dir, 'manifest.json');
  if (!existsSync(manifest)) throw new CliError(`No ${manifest}: run dbt (e.g. \`dbt docs generate\`) or pass --target-dir.`, 2);
  const form = new FormData();
  form.append('connection_id', await connectionOf(ctx, opts.connection));
  if (ctx.settings.environment) form.append('environment_id', ctx.settings.environment);
  // Blobs backed by the files: a manifest of tens of megabytes is streamed, not read into memory.
  form.append('manifest', await openAsBlob(manifest, { type: 'application/json' }), 'manifest.json');
  const catalog = join(dir, 'catalog.json');
  if (existsSync(catalog)) form.append('catalog', await openAsBlob(catalog, { type: 'application/json' }), 'catalog.json');
  let res: Response;
  try {
    res = await fetch(ctx.client.url('/api/import/dbt'), { method: 'POST', headers: ctx.client.headers(), body: form });
  } catch (err) {
    throw new CliError(`Cannot reach ${ctx.client.opts.server} (${(err as Error).message}).`);
  }
  if (!res.ok) throw await apiError(res);
  const summary = (await res.json()) as Summary;
  ctx.out.out(ctx.out.json ? JSON.stringify(summary) : human(summary));
}
