// `sextant-admin`: operator commands that work on the service database directly, with the service
// stopped or not yet started. Exits 0 on success, 1 when the command refused or failed, 2 on usage.
import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config.ts';
import { copyStoreCommand } from './copy-store.ts';
import { migrateCommand } from './migrate.ts';
import { consoleOutput, type AdminOutput } from './output.ts';


function program(output: AdminOutput, exit: { code: number }): Command {
  const p = new Command('sextant-admin').description('operator commands on the service database').exitOverride();
  p.configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) });
  p.command('migrate')
    .description('apply pending migrations: SQLite in SEXTANT_DATA_DIR, or PostgreSQL with --database-url (or SEXTANT_DATABASE_URL)')
    .option('--database-url <url>', 'postgres://... (default: SEXTANT_DATABASE_URL)')
    .action(async (o: { databaseUrl?: string }) => {
      exit.code = await migrateCommand(loadConfig(), o, output);
    });
  p.command('copy-store')
    .description('copy a SQLite service database into an empty PostgreSQL database, and verify every table')
    .option('--from <path>', 'SQLite file or data folder (default: SEXTANT_DATA_DIR)')
    .option('--to <url>', 'postgres://... (default: SEXTANT_DATABASE_URL)')
    .option('--truncate', 'empty a target that already holds rows instead of refusing it')
    .option('--batch-rows <n>', 'rows per INSERT', '1000')
    .action(async (o: { from?: string; to?: string; truncate?: boolean; batchRows: string }) => {
      exit.code = await copyStoreCommand(loadConfig(), o, output);
    });
  return p;
}

export async function main(argv: string[], output: AdminOutput = consoleOutput): Promise<number> {
  const exit = { code: 0 };
  try {
    await program(output, exit).parseAsync(argv, { from: 'user' });
    return exit.code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    output.err(err instanceof Error ? err.message : String(err));
    return 1;
  }
}
