// Charts drawn on the server, each within a budget. A chart's spec is Vega-Lite written by whoever saved
// it, and the server draws it for report mails and MCP clients. Capping the sizes a spec names
// (shared/chart-size.ts) does not bound every transform: a bin step of 1e-9 over the data's range
// took the gateway's memory, and a local regression over 20,000 rows held its event loop for 5 s. So
// charts are drawn in child processes with a heap of their own and a time limit: a chart past either
// ends its process, never the gateway. A worker thread is not enough: V8 ends the whole process on
// some allocations past a worker's heap limit (a quantile step of 1e-8 did, before steps were capped).
// Processes start with the first chart, so a gateway that draws none never loads vega, and leave when
// idle.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { systemClock, type Clock } from '../clock.ts';
import { READY, type ChartInput } from './draw-chart.ts';
import type { DrawReply } from './chart-process.ts';
import { chartKey, OverBudget } from './over-budget.ts';

export type { ChartInput } from './draw-chart.ts';

/** What a chart may take to draw. */
export interface ChartBudget {
  /** Wall time from sending a chart to its process to its PNG; a new process's start is not counted. */
  timeoutMs: number;
  /** The drawing process's JavaScript heap. */
  heapMb: number;
  /** Processes drawing at once. */
  processes: number;
  /** How long a process waits for another chart before it leaves (with vega loaded it holds ~100 MB). */
  idleMs: number;
  /** How long a chart that ran out of time or memory is refused without drawing (over-budget.ts). */
  refuseAgainMs: number;
}

/** A usual chart draws in well under a second; a new process starts and loads vega in about one. */
const DEFAULT_BUDGET: ChartBudget = { timeoutMs: 10_000, heapMb: 256, processes: Math.min(2, availableParallelism()), idleMs: 60_000, refuseAgainMs: 10 * 60_000 };

/**
 * How long a new process may take to start and load vega (about a second on a quiet machine). Not a
 * chart's budget: timed with the chart's, a busy host's slow start failed a usual chart and had it refused
 * for ten minutes.
 */
const START_MS = 60_000;

const here = fileURLToPath(import.meta.url);
const SCRIPT = fileURLToPath(new URL(`./chart-process${extname(here)}`, import.meta.url));

/**
 * A drawing process: no environment of the gateway's (its secrets stay out of reach), a heap of
 * `heapMb`. From the sources (`npm run dev`, the benches) it runs under tsx's loader.
 */
function startProcess(heapMb: number): ChildProcess {
  const loader = extname(here) === '.ts' ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return fork(SCRIPT, [], { execArgv: [...loader, `--max-old-space-size=${heapMb}`], env: {}, serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
}

/** `child` once it has loaded the drawing libraries; killed, and the chart refused, when it cannot start. */
function ready(child: ChildProcess): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.off('message', said).off('exit', ended).off('error', fail);
      outcome();
    };
    const fail = (why: Error | string) =>
      settle(() => {
        child.kill('SIGKILL');
        reject(new Error(`The chart's drawing could not start: ${why instanceof Error ? why.message : why}`));
      });
    const said = (message: unknown) => message === READY && settle(() => resolve(child));
    const ended = (code: number | null, signal: NodeJS.Signals | null) => fail(signal ?? `exit code ${code}`);
    const timer = setTimeout(() => fail(`not ready within ${START_MS / 1000} s`), START_MS);
    child.on('message', said).once('exit', ended).once('error', fail);
  });
}

/** Why a process ended without answering, in words for the chart's owner. */
function endedWhy(code: number | null, signal: NodeJS.Signals | null): string {
  // V8 aborts a process whose heap is full.
  if (signal === 'SIGABRT' || code === 134) return 'The chart needs more memory than a chart may take to draw';
  return `The chart's drawing ended (${signal ?? `exit code ${code}`})`;
}

/** Draws charts in up to `budget.processes` processes, each chart within the budget. */
export class ChartDrawer {
  private readonly idle: { child: ChildProcess; timer: NodeJS.Timeout }[] = [];
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private readonly overBudget: OverBudget;

  constructor(
    private readonly budget: ChartBudget = DEFAULT_BUDGET,
    clock: Clock = systemClock,
  ) {
    this.overBudget = new OverBudget(clock, budget.refuseAgainMs);
  }

  /**
   * The PNG of a Vega-Lite chart, at most `width` wide and four times that tall; rejects when the spec
   * does not draw, or not within the budget (and then at once when asked again for a while).
   */
  async draw(input: ChartInput): Promise<Buffer> {
    const key = chartKey(input);
    this.refuseIfOverBudget(key);
    while (this.running >= this.budget.processes) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      // Asked again while an earlier ask of it was drawing.
      this.refuseIfOverBudget(key);
      return await this.drawIn(this.takeIdle() ?? (await ready(startProcess(this.budget.heapMb))), input, key);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private refuseIfOverBudget(key: string): void {
    const refused = this.overBudget.refusal(key);
    if (refused) throw new Error(refused);
  }

  /** Draws one chart in `child`; keeps the process for the next chart if it answered in time. */
  private drawIn(child: ChildProcess, input: ChartInput, key: string): Promise<Buffer> {
    child.ref();
    child.channel?.ref();
    return new Promise<Buffer>((resolve, reject) => {
      const settle = (outcome: () => void, keep: boolean) => {
        clearTimeout(timer);
        child.off('message', answered).off('exit', ended).off('error', failed);
        if (keep) this.keep(child);
        else child.kill('SIGKILL');
        outcome();
      };
      const answered = (reply: DrawReply) => settle(() => ('png' in reply ? resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength)) : reject(new Error(reply.error))), true);
      const overBudget = (why: string) => {
        this.overBudget.remember(key, why);
        settle(() => reject(new Error(why)), false);
      };
      const ended = (code: number | null, signal: NodeJS.Signals | null) => overBudget(endedWhy(code, signal));
      const failed = (err: Error) => settle(() => reject(new Error(`The chart's drawing could not start: ${err.message}`)), false);
      const timer = setTimeout(() => overBudget(`The chart took more than ${this.budget.timeoutMs / 1000} s to draw`), this.budget.timeoutMs);
      child.on('message', answered).once('exit', ended).once('error', failed);
      child.send(input);
    });
  }

  /** An idle process still running, if there is one. */
  private takeIdle(): ChildProcess | undefined {
    for (let kept = this.idle.pop(); kept; kept = this.idle.pop()) {
      clearTimeout(kept.timer);
      if (kept.child.connected) return kept.child;
    }
    return undefined;
  }

  /** An idle process, unreferenced (it keeps no gateway alive) and gone after `idleMs` without a chart. */
  private keep(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
    const leave = () => {
      this.idle.splice(this.idle.indexOf(entry), 1);
      child.kill('SIGKILL');
    };
    const entry = { child, timer: setTimeout(leave, this.budget.idleMs) };
    entry.timer.unref();
    this.idle.push(entry);
  }
}

const shared = new ChartDrawer();

/** The PNG of a Vega-Lite chart, drawn by the gateway's drawing processes within the default budget. */
export function chartPng(input: ChartInput): Promise<Buffer> {
  return shared.draw(input);
}
