// A subscription's schedule in words (web/src/subscriptions/schedule-text.ts), without a browser: the
// crons the subscribe dialog's presets become are read back, any other is shown as written, and the
// next run is given in the schedule's own time zone.
import test from 'ava';
import { presetCron } from '../../src/subscriptions/schedule.ts';
import { nextRunText, scheduleText } from '../../web/src/subscriptions/schedule-text.ts';

test("the presets' crons read as the dialog offers them; other crons as written", (t) => {
  const tz = 'Europe/Paris';
  t.is(scheduleText({ cron: presetCron({ every: 'day', at: '07:05' }), timezone: tz }), 'Every day at 07:05 (Europe/Paris)');
  t.is(scheduleText({ cron: presetCron({ every: 'week', day: 1, at: '08:00' }), timezone: tz }), 'Every Monday at 08:00 (Europe/Paris)');
  t.is(scheduleText({ cron: presetCron({ every: 'week', day: 0, at: '23:59' }), timezone: 'UTC' }), 'Every Sunday at 23:59 (UTC)');
  t.is(scheduleText({ cron: presetCron({ every: 'month', day: 31, at: '06:30' }), timezone: tz }), 'Every month on day 31 at 06:30 (Europe/Paris)');
  for (const cron of ['0 8 1-7 * 1', '*/15 * * * *', '0 8 * 1 *', '0 8 1 * 1', '0 8,20 * * *']) t.is(scheduleText({ cron, timezone: 'UTC' }), `cron ${cron} (UTC)`, cron);
});

test('the next run is shown in the time zone of the schedule', (t) => {
  const at = Date.UTC(2026, 0, 19, 7, 0);
  t.regex(nextRunText(at, 'Europe/Paris'), /8:00/);
  t.regex(nextRunText(new Date(at).toISOString(), 'America/New_York'), /2:00/);
});
