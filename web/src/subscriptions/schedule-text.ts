// A subscription's schedule in words, as the subscribe dialog offers it ("Every Monday at 08:00"): the
// crons its presets become (subscriptions/schedule.ts on the server) are read back; any other cron is
// shown as written. The next run is shown in the schedule's own time zone, which is what it was set in.

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const PRESET = /^(\d{1,2}) (\d{1,2}) (\*|\d{1,2}) \* (\*|[0-6])$/;

/** "Every Monday at 08:00 (Europe/Paris)", or "cron 0 8 1-7 * 1 (Europe/Paris)" for a cron no preset makes. */
export function scheduleText({ cron, timezone }: { cron: string; timezone: string }): string {
  const m = PRESET.exec(cron.trim());
  const [minute, hour, day, weekday] = m ? m.slice(1) : [];
  const at = `${hour?.padStart(2, '0')}:${minute?.padStart(2, '0')}`;
  const words = !m ? undefined : day === '*' ? (weekday === '*' ? `Every day at ${at}` : `Every ${DAYS[Number(weekday)]} at ${at}`) : weekday === '*' ? `Every month on day ${day} at ${at}` : undefined;
  return `${words ?? `cron ${cron}`} (${timezone})`;
}

/** When the next run is, in the schedule's time zone: "Jan 19, 2026, 8:00 AM". */
export function nextRunText(at: string | number, timezone: string): string {
  return new Date(at).toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' });
}
