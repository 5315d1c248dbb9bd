// The `sextant` command: parses arguments, runs one command, and exits with one of the codes of
// errors.ts (0 done, 1 a check or an answer failed, 2 usage or server error, 4 not signed in).
import { Command, CommanderError } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { addAdminCommands } from './commands/admin/index.ts';
import { ask } from './commands/ask.ts';
import { catalog, chatsList, chatsSearch, chatsShow, help } from './commands/browse.ts';
import { evalCancel, evalCompare, evalCreate, evalInit, evalList, evalResults, evalValidate } from './commands/eval.ts';
import { evalRun, type RunOptions } from './commands/eval-run.ts';
import { importDbt } from './commands/import-dbt.ts';
import { envConflicts, envCreate, envCurrent, envDelete, envDiff, envList, envMerge, envResolve, envSyncTarget, envTargetSet, envUpdate, envUse } from './commands/env.ts';
import { knowledgeGet, knowledgePut } from './commands/knowledge.ts';
import { login, logout, status } from './commands/login.ts';
import { savedList, savedRun } from './commands/saved.ts';
import { savedExport } from './commands/saved-export.ts';
import { dashboardList, dashboardOpen } from './commands/dashboard.ts';
import { makeContext, type CommandContext, type GlobalFlags } from './context.ts';
import { CliError, EXIT, EXIT_CODES_HELP } from './errors.ts';
import { isBare, misspeltCommand, positionals } from './first-touch.ts';
import { consoleOutput } from './output.ts';

type Action = (ctx: CommandContext, ...args: never[]) => unknown;

/** Wraps a command's action: the context from the global flags, then the command's own arguments. */
function run(action: Action) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const flags = cmd.optsWithGlobals() as GlobalFlags;
    await (action as (...a: unknown[]) => unknown)(makeContext(flags, consoleOutput(!!flags.json)), ...args.slice(0, -1));
  };
}

/** `sextant chats ...` */
function addChatCommands(program: Command): void {
  const chats = program.command('chats').description('your chats');
  chats.command('list').description('newest first').option('--limit <n>').option('--cursor <cursor>').action(run((ctx, o: { limit?: string; cursor?: string }) => chatsList(ctx, o)));
  chats.command('show').argument('<chat_id>').description('the messages of a chat').action(run((ctx, id: string) => chatsShow(ctx, id)));
  chats.command('search').argument('<query...>').option('--limit <n>').description('search your chats').action(run((ctx, q: string[], o: { limit?: string }) => chatsSearch(ctx, q.join(' '), o)));
}

/** `sextant saved ...` */
function addSavedCommands(program: Command): void {
  const saved = program.command('saved').description('saved questions: yours and your organization\'s');
  saved.command('list').argument('[search...]', 'only those whose title or description holds these words').description('last edited first').action(run((ctx, search: string[]) => savedList(ctx, search.join(' '))));
  saved.command('run').argument('<id>').description('read its data again, with your permissions').action(run((ctx, id: string) => savedRun(ctx, id)));
  saved.command('export').argument('<id>').option('--format <format>', 'csv (default) or xlsx').option('--output <file>', 'file to write (default: the name the server gives, here); - for stdout')
    .description('every row, read now with your permissions, as a file').action(run((ctx, id: string, o: { format?: string; output?: string }) => savedExport(ctx, id, o)));
}

/** `sextant dashboard ...` */
function addDashboardCommands(program: Command): void {
  const dashboard = program.command('dashboard').description('dashboards: yours and your organization\'s');
  dashboard.command('list').argument('[search...]', 'only those whose title or description holds these words').description('last edited first').action(run((ctx, search: string[]) => dashboardList(ctx, search.join(' '))));
  dashboard.command('open').argument('<id>').description('open it in the browser (and print its URL)').action(run((ctx, id: string) => dashboardOpen(ctx, id)));
}

/** `sextant import dbt` */
function addImportCommands(program: Command): void {
  const imp = program.command('import').description('bring other tools\' artifacts in as knowledge (admins and modelers)');
  imp.command('dbt').description("import dbt's manifest.json (and catalog.json) into the active environment, or a new one")
    .option('--target-dir <dir>', "dbt's target folder (default ./target)").option('--connection <id>', 'the connection the models live in (default: the only one)')
    .action(run((ctx, o: { targetDir?: string; connection?: string }) => importDbt(ctx, o)));
}

/** `sextant env ...` */
function addEnvCommands(program: Command): void {
  const env = program.command('env').description('knowledge environments (admins and modelers)');
  env.command('list').description('list environments').action(run((ctx) => envList(ctx)));
  env.command('current').description('the environment commands use, and why').action(run((ctx) => envCurrent(ctx)));
  env.command('create').argument('<name>').option('--color <hex>', 'colour, e.g. #ff8800').option('--from <env_id>', 'fork from this environment instead of production')
    .description('create an environment').action(run((ctx, name: string, o: { color?: string; from?: string }) => envCreate(ctx, name, o)));
  env.command('use').argument('<id>', 'environment id or name; "production" to go back').description('make an environment the active one').action(run((ctx, id: string) => envUse(ctx, id)));
  env.command('target').description('warehouse targets').command('set').argument('<connection>').argument('<schema>').option('--database <db>').option('--id <env_id>')
    .description('point a connection at a dev schema in this environment').action(run((ctx, c: string, s: string, o: { database?: string; id?: string }) => envTargetSet(ctx, c, s, o)));
  env.command('sync-target').option('--id <env_id>').description('refresh table documentation from the dev targets').action(run((ctx, o: { id?: string }) => envSyncTarget(ctx, o)));
  env.command('diff').option('--id <env_id>').description('files changed against production').action(run((ctx, o: { id?: string }) => envDiff(ctx, o)));
  env.command('conflicts').option('--id <env_id>').description('predict merge conflicts (exit 1 when there are any)').action(run((ctx, o: { id?: string }) => envConflicts(ctx, o)));
  env.command('merge').option('--id <env_id>').option('--confirm', 'required: merge into production').option('--delete-after', 'delete the environment after merging')
    .option('--override-evaluations', 'admins: merge although the evaluation gate refuses (recorded in the merge commit)')
    .description('merge into production').action(run((ctx, o: { id?: string; confirm?: boolean; deleteAfter?: boolean; overrideEvaluations?: boolean }) => envMerge(ctx, o)));
  env.command('update').option('--id <env_id>').description("bring production's changes into the environment (exit 1 listing the files that conflict)")
    .action(run((ctx, o: { id?: string }) => envUpdate(ctx, o)));
  const repeat = (value: string, previous: string[]) => [...previous, value];
  env.command('resolve').option('--id <env_id>')
    .option('--ours <file>', "keep the environment's version of a conflicting file (repeatable)", repeat, [])
    .option('--theirs <file>', "keep production's version of a conflicting file (repeatable)", repeat, [])
    .option('--file <file=edited>', 'use an edited file as the merged version, e.g. notes/a.yaml=merged.yaml (repeatable)', repeat, [])
    .description("update the environment with production's changes, resolving every conflicting file in one commit")
    .action(run((ctx, o: { id?: string; ours: string[]; theirs: string[]; file: string[] }) => envResolve(ctx, o)));
  env.command('delete').argument('[id]').option('--confirm', 'required: discard the environment').description('delete an environment')
    .action(run((ctx, id: string | undefined, o: { confirm?: boolean }) => envDelete(ctx, id, o)));
}

/** `sextant knowledge ...` */
function addKnowledgeCommands(program: Command): void {
  const knowledge = program.command('knowledge').description('knowledge items as YAML files (saves only over the version read)');
  knowledge.command('get').argument('<kind>', 'tables, notes, relationships, reports, skills or evaluations').argument('<id>').option('--out <file>', 'write to a file instead of printing')
    .description('print an item headed by its version').action(run((ctx, kind: string, id: string, o: { out?: string }) => knowledgeGet(ctx, kind, id, o)));
  knowledge.command('put').argument('<kind>').argument('<id>').argument('<file>', 'YAML from `knowledge get`').option('--force', 'save even if the item changed since it was read')
    .description('save an item; refused when it changed since the version in the file').action(run((ctx, kind: string, id: string, file: string, o: { force?: boolean }) => knowledgePut(ctx, kind, id, file, o)));
}

/** `sextant eval ...` */
function addEvalCommands(program: Command): void {
  const ev = program.command('eval').description('evaluation suites and runs (admins and modelers; init and validate work offline)');
  ev.command('init').argument('[file]', 'suite file to write (default evaluation.yaml)').option('--force', 'overwrite an existing file')
    .description('write a suite file to start from').action(run((ctx, file: string | undefined, o: { force?: boolean }) => evalInit(ctx, file, o)));
  ev.command('validate').argument('<file>').description('check a suite file offline (exit 1 when invalid)').action(run((ctx, file: string) => evalValidate(ctx, file)));
  ev.command('create').argument('<file>').description('add a suite to the knowledge (in the active environment)').action(run((ctx, file: string) => evalCreate(ctx, file)));
  ev.command('list').description('evaluations and their latest runs').action(run((ctx) => evalList(ctx)));
  ev.command('run').argument('<file|id>', 'a suite file (created or updated first) or an evaluation id')
    .option('--target <target>', '"production" (default) or an environment id').option('--junit <file>', 'write a JUnit XML report')
    .option('--min-pass-rate <percent>', 'lowest share of passing questions, 0 to 100 (default 100)').option('--baseline <run_id>', 'fail when a question regressed against this run')
    .option('--expect-commit <sha>', 'refuse to run unless the target is at this commit').option('--timeout <seconds>', 'give up (and cancel) after this long (default 3600)')
    .description('run an evaluation and wait; exit 1 when it fails the gate').action(run((ctx, ref: string, o: RunOptions) => evalRun(ctx, ref, o)));
  ev.command('results').argument('<run_id>').description('a run and its questions').action(run((ctx, id: string) => evalResults(ctx, id)));
  ev.command('compare').argument('<baseline>').argument('<run_id>').description('what changed question by question (exit 1 when one regressed)')
    .action(run((ctx, baseline: string, id: string) => evalCompare(ctx, baseline, id)));
  ev.command('cancel').argument('<run_id>').description('cancel a running run').action(run((ctx, id: string) => evalCancel(ctx, id)));
}

/** Builds the command tree; `run` wraps each action with the shared context and error handling. */
export function buildProgram(): Command {
  const program = new Command('sextant')
    .description('Ask questions about your organization’s data, manage its knowledge environments, and run evaluations.')
    .version(pkg.version, '-V, --version')
    .option('--server <url>', 'server URL (default: $SEXTANT_SERVER, the saved one, or http://127.0.0.1:8080)')
    .option('--token <token>', 'API or CLI token (default: $SEXTANT_TOKEN, or the saved one)')
    .option('--env <id>', 'environment for this command (overrides $SERVICE_ENV and the saved one; "" = production)')
    .option('--json', 'print one machine-readable JSON object')
    .helpCommand(false)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride();

  program.command('ask', { isDefault: true }).description('ask a question (also: sextant "question")').argument('<question...>', 'the question')
    .option('--chat <chat_id>', 'continue a chat').option('--out <dir>', 'folder for data and chart files (default ./sextant-output)')
    .action(run((ctx, words: string[], opts: { chat?: string; out?: string }) => ask(ctx, words.join(' '), opts)));
  program.command('login').description('sign in through the browser, or headless with --token (or $SEXTANT_TOKEN)').action(run((ctx) => login(ctx)));
  program.command('logout').description('forget the saved token').action(run((ctx) => logout(ctx)));
  program.command('status').description('show user, organization, server and environment').action(run((ctx) => status(ctx)));
  program.command('catalog').description('connections and documented tables with their metrics, the most used first').action(run((ctx) => catalog(ctx)));
  // Without a question, `sextant help` is the usage, as people expect of a `help` command.
  program.command('help').description('ask a question about Sextant itself (3 to 500 characters); without one, print this usage').argument('[question...]')
    .action(async (words: string[], _opts: unknown, cmd: Command) => (words.length === 0 ? program.outputHelp() : run((ctx, q: string[]) => help(ctx, q.join(' ')))(words, cmd)));

  addChatCommands(program);
  addEnvCommands(program);
  addKnowledgeCommands(program);
  addEvalCommands(program);
  addImportCommands(program);
  addSavedCommands(program);
  addDashboardCommands(program);
  addAdminCommands(program, run);
  for (const cmd of [program, ...allCommands(program)]) cmd.exitOverride();
  return program;
}

function allCommands(c: Command): Command[] {
  return c.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}

/** Runs the CLI with argv and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const program = buildProgram();
    // `sextant` alone shows what it can do, as gh and dbt do, rather than asking for a question.
    if (isBare(argv)) {
      program.outputHelp();
      return EXIT.ok;
    }
    const meant = misspeltCommand(argv, program.commands.map((c) => c.name()).filter((n) => n !== 'ask'));
    if (meant) throw new CliError(`unknown command '${positionals(argv)[0]}', did you mean ${meant}? (To ask it as a question: sextant ask "...".)`);
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with code 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.error;
    }
    if (err instanceof CliError) {
      process.stderr.write(`sextant: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`sextant: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    return EXIT.error;
  }
}
