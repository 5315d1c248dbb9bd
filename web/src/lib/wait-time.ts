// How long to wait, said the way people say it: "in 40 seconds", "in 5 minutes", "in about 3 hours",
// or a date once it is more than a day and a half away ("on Tue 1 Dec at 00:00").

/** When to try again, `seconds` from `now`, in words. */
export function waitText(seconds: number, now: number = Date.now(), locale?: string): string {
  if (seconds < 90) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  if (seconds < 90 * 60) return `in ${Math.round(seconds / 60)} minutes`;
  if (seconds < 36 * 3600) return `in about ${Math.round(seconds / 3600)} hours`;
  const at = new Date(now + seconds * 1000);
  const day = at.toLocaleDateString(locale, { weekday: 'short', day: 'numeric', month: 'short' });
  const time = at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  return `on ${day} at ${time}`;
}
