// Registers `admin audit` and `admin usage` (issue 23) under the `admin` command. Kept apart from
// the members commands so that either can land first.
import type { Command } from 'commander';
import type { CommandContext } from '../../context.ts';
import { adminAudit, type AuditOptions } from './audit.ts';
import { adminLimits, adminSetLimit, adminUsage } from './usage.ts';

/** main.ts's wrapper: gives an action the shared context and error handling. */
type Run = (action: (ctx: CommandContext, ...args: never[]) => unknown) => (...args: unknown[]) => Promise<void>;

/** Adds the audit and usage commands to `admin`. */
export function registerAuditUsageCommands(admin: Command, run: Run): void {
  admin.command('audit').description("the organization's audit log, newest first (admins)")
    .option('--actor <email or user id>').option('--action <action>').option('--target <id>').option('--outcome <outcome>', 'success or failure')
    .option('--from <date>', 'YYYY-MM-DD or ISO date-time').option('--to <date>').option('--limit <n>', '1 to 500 (default 50)').option('--cursor <cursor>')
    .option('--export <format>', 'stream every matching entry as jsonl or csv').option('--out <file>', 'with --export: write to a file')
    .action(run((ctx, o: AuditOptions) => adminAudit(ctx, o)));
  const usage = admin.command('usage').description('questions, queries, tokens and credits per user and day (admins)')
    .option('--from <date>', 'YYYY-MM-DD (default: 30 days ago)').option('--to <date>', 'YYYY-MM-DD (default: today)').option('--user <user_id>')
    .action(run((ctx, o: { from?: string; to?: string; user?: string }) => adminUsage(ctx, o)));
  usage.command('limits').description('monthly credit limits with this month\'s use').action(run((ctx) => adminLimits(ctx)));
  usage.command('set-limit').argument('<credits>', 'monthly credits, or "none" to remove').option('--member <user_id>', 'a member instead of the organization')
    .description('set or remove a monthly credit limit').action(run((ctx, value: string, o: { member?: string }) => adminSetLimit(ctx, value, { user: o.member })));
}
