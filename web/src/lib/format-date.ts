// Dates as people read them in lists: the time for today, the weekday within the week, the day and
// month within the year, and the year beyond it. In the browser's language and time zone.

const DAY = 86_400_000;

/** A short date for a list (`14:05`, `Tue`, `3 Mar`, `3 Mar 2024`), relative to `now`. */
export function shortDate(ms: number, now: number = Date.now(), locale?: string): string {
  const d = new Date(ms);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) return d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  if (now - ms < 6 * DAY && ms < now) return d.toLocaleDateString(locale, { weekday: 'short' });
  if (d.getFullYear() === today.getFullYear()) return d.toLocaleDateString(locale, { day: 'numeric', month: 'short' });
  return d.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The full date and time, for a tooltip or a `<time>`'s title. */
export function fullDate(ms: number, locale?: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
