// Where sextant-admin's commands write; tests pass their own.
export interface AdminOutput {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: AdminOutput = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };
