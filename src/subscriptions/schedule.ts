// When a subscription's slots fall: a five-field cron expression read in an IANA time zone by croner
// (daylight-saving gaps and overlaps handled there), and the presets the API offers mapped to cron.
import { Cron } from 'croner';

/** The presets: every day, one weekday, or one day of the month, at a time. */
export type Preset = { every: 'day'; at: string } | { every: 'week'; day: number; at: string } | { every: 'month'; day: number; at: string };

/** The cron of a preset (`at` is HH:MM, checked at the edge). */
export function presetCron(p: Preset): string {
  const [h, m] = p.at.split(':').map(Number) as [number, number];
  if (p.every === 'day') return `${m} ${h} * * *`;
  if (p.every === 'week') return `${m} ${h} * * ${p.day}`;
  return `${m} ${h} ${p.day} * *`;
}

/** Why a schedule is refused, or undefined when croner reads it: five fields (a minute at finest) and a known zone. */
export function scheduleProblem(cron: string, timezone: string): string | undefined {
  if (cron.trim().split(/\s+/).length !== 5) return 'A cron expression has five fields: minute hour day-of-month month day-of-week';
  try {
    if (!new Cron(cron, { timezone, paused: true }).nextRun(new Date(0))) return 'The cron expression never fires';
  } catch (err) {
    return /timezone/i.test(String(err)) ? 'Unknown time zone' : 'Invalid cron expression';
  }
  return undefined;
}

/** The first slot strictly after `after` (ms), or undefined when there is none. */
export function nextSlot(cron: string, timezone: string, after: number): number | undefined {
  return new Cron(cron, { timezone, paused: true }).nextRun(new Date(after))?.getTime();
}
