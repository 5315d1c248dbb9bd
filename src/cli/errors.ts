// The CLI's exit codes, one per kind of outcome, so a script can tell them apart; `--help` and
// docs/SKILL.md list them.
export const EXIT = {
  /** Done. */
  ok: 0,
  /** A check or an answer failed: evaluation gate or regression, predicted conflicts, an invalid suite file, a failed run, an item changed since it was read. */
  failed: 1,
  /** A usage error, or the server refused the request or could not be reached. */
  error: 2,
  /** Not signed in, or the token was refused (as gh does). */
  signedOut: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit codes as `--help` shows them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  a check or an answer failed (evaluation gate or regression, predicted conflicts, an invalid
     suite file, a failed run, an item changed since it was read)
  2  usage error, or the server refused the request or could not be reached
  4  not signed in, or the token was refused: run \`sextant login\``;

/** A failure the CLI reports in one line with what to do next, and the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.error,
  ) {
    super(message);
  }
}
