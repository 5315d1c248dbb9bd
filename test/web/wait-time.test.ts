// How long to wait, in words (web/src/lib/wait-time.ts), and the dates of the chat history
// (web/src/lib/format-date.ts), without a browser.
import test from 'ava';
import { shortDate } from '../../web/src/lib/format-date.ts';
import { waitText } from '../../web/src/lib/wait-time.ts';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

test('a wait is said in seconds, minutes, hours, or as a date past a day and a half', (t) => {
  t.is(waitText(1, NOW), 'in 1 second');
  t.is(waitText(40, NOW), 'in 40 seconds');
  t.is(waitText(5 * 60, NOW), 'in 5 minutes');
  t.is(waitText(3 * 3600, NOW), 'in about 3 hours');
  // The credit limit's 246044 seconds: a date, not a count.
  const far = waitText(246_044, NOW, 'en-GB');
  t.regex(far, /^on \w{3},? \d{1,2} \w{3} at \d{2}:\d{2}$/);
  t.false(far.includes('246044'));
});

test('history dates are short: the time today, the weekday this week, then day and month, and the year beyond it', (t) => {
  t.regex(shortDate(NOW - 60_000, NOW, 'en-GB'), /^\d{2}:\d{2}$/);
  t.regex(shortDate(NOW - 3 * 86_400_000, NOW, 'en-GB'), /^[A-Z][a-z]{2}$/);
  t.regex(shortDate(NOW - 40 * 86_400_000, NOW, 'en-GB'), /^\d{1,2} [A-Z][a-z]{2}$/);
  t.regex(shortDate(NOW - 400 * 86_400_000, NOW, 'en-GB'), /^\d{1,2} [A-Z][a-z]{2} 2025$/);
});
