// Runs the real `sextant` process (the self-contained build, or the CLI's own entry) with its own config folder.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeEntry } from './node-entry.ts';

/**
 * The CLI's entry module, run as bin/sextant.js runs it (that file imports it through tsx): compiled in
 * the suite's mirror (node-entry.ts), ~0.5 s of CPU less per run over the ~150 runs of the CLI tests.
 */
export const CLI_SOURCE = new URL('../../src/cli/run.ts', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunner {
  configDir: string;
  /** Runs the CLI to completion. */
  run(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>;
  /** Starts the CLI and returns the process plus a promise of its result (for interactive flows). */
  start(args: string[], env?: Record<string, string | undefined>): { child: ReturnType<typeof spawn>; done: Promise<CliResult>; stderrSoFar: () => string };
}

/** A runner for `entry` (a JS file, or a TypeScript module as node-entry.ts runs it) against `server`. */
export function cliRunner(entry: string, server: string): CliRunner {
  const configDir = mkdtempSync(join(tmpdir(), 'sextant-cli-'));
  const start: CliRunner['start'] = (args, env = {}) => {
    const base = { PATH: process.env['PATH'], HOME: configDir, SEXTANT_CONFIG_DIR: configDir, SEXTANT_SERVER: server, SEXTANT_NO_BROWSER: '1' };
    const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const child = spawn(process.execPath, [...nodeEntry(entry), ...args], { env: merged, cwd: configDir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
    return { child, done, stderrSoFar: () => stderr };
  };
  return { configDir, start, run: (args, env) => start(args, env).done };
}
