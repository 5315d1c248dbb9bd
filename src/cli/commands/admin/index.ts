// `sextant admin ...`: running the organization from the terminal (admins only). Each subcommand is
// one file; `audit` and `usage` come from audit-usage-commands.ts, `workspace` from workspace.ts.
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { registerAuditUsageCommands } from './audit-usage-commands.ts';
import { adminDeactivate } from './deactivate.ts';
import { adminInvite } from './invite.ts';
import { adminMembers } from './members.ts';
import { adminRole } from './role.ts';
import * as w from './workspace.ts';

type Run = (action: (ctx: CommandContext, ...args: never[]) => unknown) => (...args: unknown[]) => Promise<void>;

/** Adds `sextant admin` and its subcommands to the program. */
export function addAdminCommands(program: Command, run: Run): Command {
  const admin = program.command('admin').description('run the organization: members, invitations, roles, workspaces, audit log, usage (admins only)');
  admin.command('members').description('members with role, status, MFA and last sign-in').option('--search <text>', 'part of a name or email')
    .option('--limit <n>').option('--cursor <cursor>').action(run((ctx, o: { search?: string; limit?: string; cursor?: string }) => adminMembers(ctx, o)));
  admin.command('invite').argument('<email>').option('--role <role>', 'user (default), modeler or admin').description('mail an invitation link')
    .action(run((ctx, email: string, o: { role?: string }) => adminInvite(ctx, email, o)));
  admin.command('role').argument('<member>', 'email or user id').argument('<role>', 'user, modeler or admin').option('--can-merge', 'modelers: may merge to production')
    .option('--no-can-merge', 'modelers: may not merge to production').description("change a member's role")
    .action(run((ctx, who: string, role: string, o: { canMerge?: boolean }) => adminRole(ctx, who, role, o)));
  admin.command('deactivate').argument('<member>', 'email or user id').option('--reactivate', 'let a deactivated member in again')
    .description('stop every session and token of a member (chats stay)').action(run((ctx, who: string, o: { reactivate?: boolean }) => adminDeactivate(ctx, who, o)));
  registerAuditUsageCommands(admin, run);
  addWorkspaceCommands(admin, run);
  return admin;
}

/** `sextant admin workspace ...`: workspaces and who is in them. */
function addWorkspaceCommands(admin: Command, run: Run): void {
  const ws = admin.command('workspace').description("the organization's workspaces and their members");
  ws.command('list').description('workspaces with their member counts').action(run((ctx) => w.workspaceList(ctx)));
  ws.command('create').argument('<name>').description('create a workspace (you become its admin)').action(run((ctx, name: string) => w.workspaceCreate(ctx, name)));
  ws.command('rename').argument('<workspace>', 'id or name').argument('<name>', 'the new name').description('rename a workspace')
    .action(run((ctx, which: string, name: string) => w.workspaceRename(ctx, which, name)));
  ws.command('remove').argument('<workspace>', 'id or name').option('--confirm', "required: members' sessions there end")
    .description('remove a workspace').action(run((ctx, which: string, o: { confirm?: boolean }) => w.workspaceRemove(ctx, which, o)));
  ws.command('members').argument('<workspace>', 'id or name').description('members of a workspace with their roles').action(run((ctx, which: string) => w.workspaceMembers(ctx, which)));
  ws.command('add').argument('<workspace>', 'id or name').argument('<member>', 'email or user id').option('--role <role>', 'user (default), modeler or admin')
    .description("add a member of the organization, or change their role there").action(run((ctx, which: string, who: string, o: { role?: string }) => w.workspaceAdd(ctx, which, who, o)));
  ws.command('take-out').argument('<workspace>', 'id or name').argument('<member>', 'email or user id').description('take a member out of a workspace')
    .action(run((ctx, which: string, who: string) => w.workspaceTakeOut(ctx, which, who)));
}
