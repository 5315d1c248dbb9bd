/** A failure the CLI reports in one line with what to do next, and the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1: a check or answer failed; 2: usage or server error. */
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
  }
}
