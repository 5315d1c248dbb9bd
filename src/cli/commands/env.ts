// `sextant env ...`: environments (interface part 4, rule 4).
import { readFileSync } from 'node:fs';
import { CliError } from '../errors.ts';
import { apiError } from '../http.ts';
import { objectTable } from '../output.ts';
import type { CommandContext } from '../context.ts';

type Env = { id: string; name: string; color?: string; throwaway?: boolean; git_branch?: string | null; expires_at?: string | null } & Record<string, unknown>;

const print = (ctx: CommandContext, value: unknown, human: () => string) => ctx.out.out(ctx.out.json ? JSON.stringify(value) : human());
const listOf = (v: unknown): Env[] => (Array.isArray(v) ? v : ((v as { environments?: Env[] }).environments ?? [])) as Env[];

export async function envList(ctx: CommandContext): Promise<void> {
  const envs = listOf(await ctx.client.json('GET', '/api/environments'));
  const active = ctx.settings.environment;
  // A throwaway environment (a quick-fix session) is deleted after a week idle; `sextant env` cannot keep it.
  const rows = envs.map((e) => ({ ...e, active: e.id === active ? '*' : '', kind: e.throwaway ? 'throwaway' : 'lasting', expires: e.expires_at ?? '' }));
  print(ctx, envs, () => (envs.length === 0 ? 'No environments. Create one with `sextant env create <name>`.' : objectTable(rows, ['active', 'id', 'name', 'color', 'kind', 'expires'])));
}

export function envCurrent(ctx: CommandContext): void {
  const { environment, environmentSource } = ctx.settings;
  print(ctx, { environment: environment ?? null, source: environmentSource }, () => `${environment ?? 'production'} (${environmentSource})`);
}

export async function envCreate(ctx: CommandContext, name: string, opts: { color?: string; from?: string }): Promise<void> {
  const env = await ctx.client.json<Env>('POST', '/api/environments', { body: { name, color: opts.color ?? '#4f7cff', ...(opts.from ? { source_env_id: opts.from } : {}) } });
  print(ctx, env, () => `Created environment ${env.name} (${env.id}). Switch to it with \`sextant env use ${env.id}\`.`);
}

/** Saves the active environment; `production` (or an empty id) clears it. */
export async function envUse(ctx: CommandContext, id: string): Promise<void> {
  if (id === '' || id === 'production') {
    const { environment: _e, ...rest } = ctx.saved;
    ctx.save(rest);
    print(ctx, { environment: null }, () => 'Using production.');
    return;
  }
  const envs = listOf(await ctx.client.json('GET', '/api/environments'));
  // Names are unique within an organization ignoring case, so a name picks one environment.
  const env = envs.find((e) => e.id === id) ?? envs.find((e) => e.name.toLowerCase() === id.toLowerCase());
  if (!env) throw new CliError(`No environment ${id}. See \`sextant env list\`.`);
  ctx.save({ ...ctx.saved, environment: env.id });
  print(ctx, { environment: env.id }, () => `Using environment ${env.name} (${env.id}).`);
}

function requireEnv(ctx: CommandContext, id?: string): string {
  const env = id ?? ctx.settings.environment;
  if (!env) throw new CliError('No environment selected: pass an id, --env <id>, or run `sextant env use <id>`.', 2);
  return env;
}

export async function envTargetSet(ctx: CommandContext, connection: string, schema: string, opts: { database?: string; id?: string }): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  const res = await ctx.client.json('PUT', `/api/environments/${encodeURIComponent(id)}/targets`, {
    body: { targets: { [connection]: { schema, ...(opts.database ? { database: opts.database } : {}) } } },
  });
  print(ctx, res, () => `Target of ${connection} in ${id}: ${opts.database ? `${opts.database}.` : ''}${schema}`);
}

export async function envSyncTarget(ctx: CommandContext, opts: { id?: string }): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  const res = await ctx.client.json('POST', `/api/environments/${encodeURIComponent(id)}/sync_target`, { body: {} });
  print(ctx, res, () => `Synced table documentation of ${id} from its targets.\n${JSON.stringify(res, null, 2)}`);
}

export async function envDiff(ctx: CommandContext, opts: { id?: string }): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  const res = await ctx.client.json<{ files?: { path: string; status: string }[] }>('GET', `/api/environments/${encodeURIComponent(id)}/diff`);
  const files = Array.isArray(res) ? (res as { path: string; status: string }[]) : (res.files ?? []);
  print(ctx, res, () => (files.length === 0 ? 'No changes against production.' : files.map((f) => `${f.status.padEnd(9)} ${f.path}`).join('\n')));
}

/** Exits 1 when conflicts are predicted, so scripts can gate a merge on it. */
export async function envConflicts(ctx: CommandContext, opts: { id?: string }): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  const res = await ctx.client.json<{ conflicts?: unknown[]; files?: unknown[] }>('GET', `/api/environments/${encodeURIComponent(id)}/conflicts`);
  const conflicts = (res.conflicts ?? res.files ?? []) as (string | { path: string })[];
  print(ctx, res, () => (conflicts.length === 0 ? 'No conflicts predicted: the merge will apply cleanly.' : `Conflicts predicted in:\n${conflicts.map((c) => `  ${typeof c === 'string' ? c : c.path}`).join('\n')}\nBring production's changes in and resolve them with \`sextant env update\`.`));
  if (conflicts.length > 0) process.exitCode = 1;
}

export async function envMerge(ctx: CommandContext, opts: { id?: string; confirm?: boolean; deleteAfter?: boolean; overrideEvaluations?: boolean }): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  if (!opts.confirm) throw new CliError('Merging changes production: add --confirm to go ahead (see `sextant env diff` first).', 2);
  const res = await ctx.client.json('POST', `/api/environments/${encodeURIComponent(id)}/merge`, { body: { confirm: true, ...(opts.overrideEvaluations ? { override_evaluations: true } : {}) } });
  if (opts.deleteAfter) await ctx.client.json('DELETE', `/api/environments/${encodeURIComponent(id)}`, { query: { confirm: true } });
  if (opts.deleteAfter && ctx.saved.environment === id) {
    const { environment: _e, ...rest } = ctx.saved;
    ctx.save(rest);
  }
  print(ctx, res, () => `Merged ${id} into production.${opts.deleteAfter ? ' The environment was deleted.' : ''}`);
}

export async function envDelete(ctx: CommandContext, id: string | undefined, opts: { confirm?: boolean }): Promise<void> {
  const env = requireEnv(ctx, id);
  if (!opts.confirm) throw new CliError('Deleting an environment discards its changes: add --confirm to go ahead.', 2);
  await ctx.client.json('DELETE', `/api/environments/${encodeURIComponent(env)}`, { query: { confirm: true } });
  if (ctx.saved.environment === env) {
    const { environment: _e, ...rest } = ctx.saved;
    ctx.save(rest);
  }
  print(ctx, { deleted: env }, () => `Deleted environment ${env}.`);
}

interface UpdateOptions {
  id?: string;
  ours?: string[];
  theirs?: string[];
  file?: string[];
}

/** A resolution per file: --ours (the environment's version), --theirs (production's), --file <path>=<edited file>. */
function resolutionsOf(opts: UpdateOptions): { path: string; keep: string; content?: string }[] {
  const merged = (opts.file ?? []).map((spec) => {
    const at = spec.indexOf('=');
    if (at <= 0) throw new CliError(`--file takes <path>=<edited file>, e.g. --file notes/a.yaml=merged.yaml (got ${spec}).`, 2);
    const file = spec.slice(at + 1);
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch {
      throw new CliError(`Cannot read ${file}.`, 2);
    }
    return { path: spec.slice(0, at), keep: 'merged', content };
  });
  return [...(opts.ours ?? []).map((path) => ({ path, keep: 'environment' })), ...(opts.theirs ?? []).map((path) => ({ path, keep: 'production' })), ...merged];
}

/**
 * Brings production's changes into the environment (a merge commit there), with the conflicting files
 * resolved as the options say. Exits 1 with the files still conflicting and how to resolve them.
 */
export async function envUpdate(ctx: CommandContext, opts: UpdateOptions): Promise<void> {
  const id = requireEnv(ctx, opts.id);
  const resolutions = resolutionsOf(opts);
  const res = await ctx.client.raw('POST', `/api/environments/${encodeURIComponent(id)}/update`, { body: resolutions.length > 0 ? { resolutions } : {} });
  if (res.status === 409) {
    const body = (await res.json()) as { code?: string; data?: { conflicts?: string[] } };
    const conflicts = body.data?.conflicts ?? [];
    print(ctx, body, () => `These files conflict with production:\n${conflicts.map((c) => `  ${c}`).join('\n')}\nResolve each one: \`sextant env resolve --ours <file>\` keeps the environment's version, --theirs <file> production's, --file <file>=<edited file> a merged version (repeat the options, one call for all files).`);
    process.exitCode = 1;
    return;
  }
  if (!res.ok) throw await apiError(res);
  const out = (await res.json()) as { merge: string; commit: string | null };
  print(ctx, out, () => (out.merge === 'up_to_date' ? `${id} already has production's changes.` : `${id} now has production's changes${resolutions.length > 0 ? `, ${resolutions.length} file(s) resolved` : ''}. It merges into production without conflict.`));
}

/** `sextant env resolve`: an update that names how each conflicting file is resolved. */
export async function envResolve(ctx: CommandContext, opts: UpdateOptions): Promise<void> {
  if (resolutionsOf(opts).length === 0) throw new CliError('Name how to resolve each conflicting file: --ours <file>, --theirs <file> or --file <file>=<edited file> (see `sextant env update`).', 2);
  await envUpdate(ctx, opts);
}
