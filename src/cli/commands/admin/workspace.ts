// `sextant admin workspace list | create | rename | remove | members | add | take-out`: the
// organization's workspaces and their members. A workspace is named by its id or its name; a member
// by email or user id.
import type { CommandContext } from '../../context.ts';
import { CliError } from '../../errors.ts';
import { objectTable } from '../../output.ts';
import { adminCall, print, resolveMember } from './admin-client.ts';

type Workspace = Record<string, unknown> & {
  workspace_id: string;
  name: string;
  member_count: number;
  created_at: string;
};

type WorkspaceMember = Record<string, unknown> & {
  user_id: string;
  email: string;
  name: string;
  role: string;
};

const BASE = '/api/admin/workspaces';
const listOf = async (ctx: CommandContext) => (await adminCall<{ workspaces: Workspace[] }>(ctx, 'GET', BASE)).workspaces;
const membersTable = (members: WorkspaceMember[]) => objectTable(members, ['email', 'name', 'role', 'user_id']);

/** The workspace an argument names: its id, else its name (case folded, as names are unique so). */
async function resolveWorkspace(ctx: CommandContext, which: string): Promise<Workspace> {
  const all = await listOf(ctx);
  const found = all.find((w) => w.workspace_id === which) ?? all.find((w) => w.name.toLowerCase() === which.toLowerCase());
  if (!found) throw new CliError(`No workspace ${which} (see \`sextant admin workspace list\`).`, 1);
  return found;
}

const pathOf = (w: Workspace) => `${BASE}/${encodeURIComponent(w.workspace_id)}`;

export async function workspaceList(ctx: CommandContext): Promise<void> {
  const all = await listOf(ctx);
  print(ctx, { workspaces: all }, () => (all.length === 0 ? 'No workspaces. Create one with `sextant admin workspace create <name>`.' : objectTable(all, ['name', 'member_count', 'workspace_id', 'created_at'])));
}

export async function workspaceCreate(ctx: CommandContext, name: string): Promise<void> {
  const w = await adminCall<Workspace>(ctx, 'POST', BASE, { body: { name } });
  print(ctx, w, () => `Created workspace ${w.name} (${w.workspace_id}); you are its admin. Add members with \`sextant admin workspace add ${w.workspace_id} <member>\`.`);
}

export async function workspaceRename(ctx: CommandContext, which: string, name: string): Promise<void> {
  const w = await adminCall<Workspace>(ctx, 'PATCH', pathOf(await resolveWorkspace(ctx, which)), { body: { name } });
  print(ctx, w, () => `Renamed workspace ${w.workspace_id} to ${w.name}.`);
}

export async function workspaceRemove(ctx: CommandContext, which: string, opts: { confirm?: boolean }): Promise<void> {
  if (!opts.confirm) throw new CliError("Removing a workspace deletes its chats and ends its members' sessions there: add --confirm to go ahead.", 2);
  const w = await resolveWorkspace(ctx, which);
  await adminCall(ctx, 'DELETE', pathOf(w), { query: { confirm: 'true' } });
  print(ctx, { removed: w.workspace_id }, () => `Removed workspace ${w.name} (${w.workspace_id}).`);
}

export async function workspaceMembers(ctx: CommandContext, which: string): Promise<void> {
  const res = await adminCall<{ members: WorkspaceMember[] }>(ctx, 'GET', `${pathOf(await resolveWorkspace(ctx, which))}/members`);
  print(ctx, res, () => membersTable(res.members));
}

export async function workspaceAdd(ctx: CommandContext, which: string, who: string, opts: { role?: string }): Promise<void> {
  const w = await resolveWorkspace(ctx, which);
  const m = await resolveMember(ctx, who);
  const res = await adminCall<{ members: WorkspaceMember[] }>(ctx, 'PUT', `${pathOf(w)}/members/${encodeURIComponent(m.user_id)}`, { body: { role: opts.role ?? 'user' } });
  print(ctx, res, () => `${m.email} is ${opts.role ?? 'user'} in ${w.name}.\n${membersTable(res.members)}`);
}

export async function workspaceTakeOut(ctx: CommandContext, which: string, who: string): Promise<void> {
  const w = await resolveWorkspace(ctx, which);
  const m = await resolveMember(ctx, who);
  await adminCall(ctx, 'DELETE', `${pathOf(w)}/members/${encodeURIComponent(m.user_id)}`);
  print(ctx, { workspace_id: w.workspace_id, removed: m.user_id }, () => `Took ${m.email} out of ${w.name}.`);
}
