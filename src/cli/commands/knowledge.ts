// `sextant knowledge get|put`: one knowledge item as a YAML file to edit. `get` writes the item's
// version into the file as a comment; `put` sends it back as If-Match, so a save over someone else's
// change since is refused (the server answers 412) instead of silently undoing it.
import { readFileSync, writeFileSync } from 'node:fs';
import type { CommandContext } from '../context.ts';
import { apiError } from '../http.ts';
import { CliError } from '../errors.ts';

interface Item {
  kind: string;
  id: string;
  yaml: string;
  version: string;
  commit: string;
}

const VERSION_LINE = /^# sextant-version: ([0-9a-f]{40})\s*$/m;
const itemPath = (kind: string, id: string) => `/api/knowledge/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;

/** Prints (or writes to `--out`) the item's YAML, headed by its version. */
export async function knowledgeGet(ctx: CommandContext, kind: string, id: string, opts: { out?: string }): Promise<void> {
  const item = await ctx.client.json<Item>('GET', itemPath(kind, id));
  const text = `# sextant-version: ${item.version}\n${item.yaml}`;
  if (opts.out) writeFileSync(opts.out, text);
  ctx.out.out(ctx.out.json ? JSON.stringify(item) : opts.out ? `Wrote ${kind}/${id} (version ${item.version}) to ${opts.out}.` : text.trimEnd());
}

/** Saves a YAML (or JSON) file as the item, only over the version it was read at unless `--force`. */
export async function knowledgePut(ctx: CommandContext, kind: string, id: string, file: string, opts: { force?: boolean }): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const version = VERSION_LINE.exec(text)?.[1];
  if (!version && !opts.force) throw new CliError(`${file} has no "# sextant-version:" line: get the item with \`sextant knowledge get ${kind} ${id} --out ${file}\`, or pass --force to save without checking.`, 2);
  // Loaded here, not at the CLI's start (see suite-file.ts).
  const { parse } = await import('yaml');
  const res = await ctx.client.raw('PUT', itemPath(kind, id), { body: parse(text), headers: version && !opts.force ? { 'if-match': `"${version}"` } : {} });
  if (res.status === 412) {
    const body = (await res.json()) as { data?: { current_version?: string | null } };
    throw new CliError(`${kind}/${id} changed since you read it (now version ${body.data?.current_version ?? 'deleted'}): get it again, reapply your change, and save. Nothing was written.`, 1);
  }
  if (!res.ok) throw await apiError(res);
  const item = (await res.json()) as Item;
  writeFileSync(file, text.replace(VERSION_LINE, `# sextant-version: ${item.version}`));
  ctx.out.out(ctx.out.json ? JSON.stringify(item) : `Saved ${kind}/${id} (version ${item.version}, commit ${item.commit.slice(0, 7)}).`);
}
