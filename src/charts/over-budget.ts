// Charts that ran out of their drawing budget, refused again at once for a while. A chart is drawn
// again each time it is asked for (an MCP client calling get_result again, each run of a report), and
// a spec that takes a drawing process's whole budget would, asked again and again, keep the processes
// from everyone else's charts. Charts are known by a hash of what is drawn (spec, rows and width).
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { ChartInput } from './draw-chart.ts';

/** How many charts are remembered; the oldest is forgotten first. */
const REMEMBERED = 256;

/** The key of what a chart draws (bigints, which rows may hold, as their digits). */
export function chartKey(input: ChartInput): string {
  const text = JSON.stringify([input.spec, input.rows ?? null, input.width ?? null], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return createHash('sha256').update(text).digest('base64url');
}

/** The charts that ran out of budget lately, with why. */
export class OverBudget {
  private readonly failed = new Map<string, { at: number; why: string }>();

  constructor(
    private readonly clock: Clock,
    private readonly forMs: number,
  ) {}

  /** Why the chart is refused without drawing, or undefined when it may be drawn. */
  refusal(key: string): string | undefined {
    const last = this.failed.get(key);
    if (!last || this.clock.now() - last.at >= this.forMs) return undefined;
    return `${last.why}; it is not drawn again until ${new Date(last.at + this.forMs).toISOString()}`;
  }

  /** Remembers that the chart ran out of budget. */
  remember(key: string, why: string): void {
    this.failed.delete(key);
    this.failed.set(key, { at: this.clock.now(), why });
    if (this.failed.size > REMEMBERED) this.failed.delete(this.failed.keys().next().value!);
  }
}
