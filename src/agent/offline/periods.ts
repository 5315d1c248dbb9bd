// Time periods in questions ("last month", "in 2024", "this year", "in March 2025", "last 30 days",
// "in Q2 2024", "since 2025", "January to March 2025", "H2 2024", "since June", "on October 15",
// "2025-01-01 to 2025-03-31", "before 2024") as half-open UTC date ranges, relative to the injected
// clock.

/** A unit of time: each period of it is one group, or one unit averaged over (per-unit.ts). */
export type PeriodBucket = 'day' | 'week' | 'month' | 'quarter' | 'year';

export interface Period {
  /** Inclusive start, YYYY-MM-DD; undefined for a period open at the start ("before 2024"). */
  from?: string;
  /** Exclusive end, YYYY-MM-DD; undefined for open-ended ("since 2025"). */
  to?: string;
  /** The words matched, for titles. */
  label: string;
  /** Where the match is in the question, to keep it apart from other words. */
  span: [number, number];
  /** Two periods of this length compared ("this year vs last year"): the answer has a row for each. */
  compare?: 'year' | 'quarter' | 'month';
  /** The time between two compared periods that are not neighbours ("2023 vs 2025": 2024), not read. */
  between?: { from: string; to: string };
  /**
   * "the last 12 months" counts back from today; grouped by month, that would begin and end with a
   * part of a month. `whole` is the same number of whole units before the current one, for a question
   * grouped by `unit` itself; `wholeBy` the same time in whole months or quarters, for a question
   * grouped by those ("monthly revenue over the past year": the last 12 whole months).
   */
  rolling?: { unit: PeriodBucket; whole: WholeUnits; wholeBy?: { month?: WholeUnits; quarter?: WholeUnits } };
  /** "the previous month", "the month before": in a follow-up, the one before the earlier question's (follow-up.ts). */
  relative?: PeriodBucket;
}

export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const iso = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

const COMPARED = /^ (?:vs|versus|compared (?:to|with)|against|and) /;

/**
 * Finds the first time period in a normalized (lower-case) question. Two periods of one length
 * compared ("this year vs last year", "2025 compared to 2024", "Q1 2025 and Q2 2025", "Q1 vs Q3
 * 2025") are one period covering both, compared by that length, less the time `between` them when
 * they are not neighbours. Others ("March vs Q2", "2025 vs Q1 2025") stay the first period alone, and
 * the words after it are left unread (the question is then refused, not answered for one), as is "the
 * quarter before" that, read from today, does not land just before the first ("Q1 2025 vs the quarter before").
 */
export function findPeriod(text: string, nowMs: number): Period | undefined {
  const first = onePeriod(text, nowMs);
  const bounded = first && boundedBy(text, first);
  if (bounded !== undefined) return bounded ?? undefined;
  const connector = first && COMPARED.exec(text.slice(first.span[1]));
  if (!first || !connector) return first;
  const at = first.span[1] + connector[0].length;
  const second = onePeriod(text.slice(at), nowMs);
  if (!second || second.span[0] !== 0) return first;
  const own = ofYearAfter(text.slice(...first.span), text.slice(at, at + second.span[1]), nowMs) ?? first;
  const length = lengthOf(own);
  if (!length || lengthOf(second) !== length || (second.relative && second.to !== own.from)) return first;
  const [a, b] = own.from! < second.from! ? [own, second] : [second, own];
  if (a.to! > b.from!) return first;
  const label = `${a.label} and ${b.label.replace(/^in /, '')}`;
  return { from: a.from, to: b.to, label, span: [first.span[0], at + second.span[1]], compare: length, ...(a.to !== b.from ? { between: { from: a.to!, to: b.from! } } : {}) };
}

const WITHOUT_YEAR = new RegExp(`^(?:in |during )?(?:q[1-4]|${MONTHS.join('|')})$`);

/** "Q1 vs Q2 2025", "March vs April 2025": a quarter or month without a year takes the year said after both. */
function ofYearAfter(first: string, second: string, nowMs: number): Period | undefined {
  const year = WITHOUT_YEAR.test(first) ? /\b(\d{4})$/.exec(second)?.[1] : undefined;
  return year ? onePeriod(`${first} ${year}`, nowMs) : undefined;
}

const BOUND = /\b(before|after|until|till|up to|through)(?: the end of)? $/;

/**
 * "before 2024", "after June 2025", "until March 2025": the time before the period, after it, or
 * up to its end. undefined when no such word stands before it; null when it cannot bound (after a
 * period without an end).
 */
function boundedBy(text: string, p: Period): Period | null | undefined {
  const bound = BOUND.exec(text.slice(0, p.span[0]));
  if (!bound) return undefined;
  const span: [number, number] = [bound.index, p.span[1]];
  const what = p.label.replace(/^(?:in|on|during) /, '');
  if (bound[1] === 'before') return p.from ? { to: p.from, label: `before ${what}`, span } : null;
  if (bound[1] === 'after') return p.to ? { from: p.to, label: `after ${what}`, span } : null;
  return p.to ? { to: p.to, label: `until the end of ${what}`, span } : null;
}

/** A whole year, quarter or month compared with the one before ("growth in 2025") or after it ("growth from 2024"); else undefined. */
export function withNeighbour(p: Period, side: 'before' | 'after'): Period | undefined {
  const length = lengthOf(p);
  if (!length || p.compare) return undefined;
  const months = length === 'year' ? 12 : length === 'quarter' ? 3 : 1;
  const [y, m] = (side === 'before' ? p.from! : p.to!).split('-').map(Number);
  const edge = iso(y!, m! - 1 + (side === 'before' ? -months : months));
  return { from: side === 'before' ? edge : p.from!, to: side === 'before' ? p.to! : edge, label: `${p.label} and the ${length} ${side}`, span: p.span, compare: length };
}

/** A period's length when it is one whole year, quarter or month. */
export function lengthOf(p: Period): Period['compare'] {
  if (!p.from || !p.to) return undefined;
  const [fy, fm, fd] = p.from.split('-').map(Number);
  const [ty, tm, td] = p.to.split('-').map(Number);
  if (fd !== 1 || td !== 1) return undefined;
  const months = (ty! - fy!) * 12 + (tm! - fm!);
  if (months === 12 && fm === 1) return 'year';
  if (months === 3 && (fm! - 1) % 3 === 0) return 'quarter';
  return months === 1 ? 'month' : undefined;
}

function onePeriod(text: string, nowMs: number): Period | undefined {
  const now = new Date(nowMs);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const at = (re: RegExp) => re.exec(text);
  const span = (r: RegExpExecArray): [number, number] => [r.index, r.index + r[0].length];
  const named = namedPeriod(text, y, m, d);
  if (named) return named;
  let r: RegExpExecArray | null;
  if ((r = at(/\b(?:in |during )?(q[1-4]) (\d{4})\b/))) {
    const q = Number(r[1]!.slice(1)) - 1;
    const year = Number(r[2]);
    return { from: iso(year, q * 3), to: iso(year, q * 3 + 3), label: `in ${r[1]!.toUpperCase()} ${year}`, span: span(r) };
  }
  if ((r = at(new RegExp(`\\b(?:in |during )?(${MONTHS.join('|')}) (\\d{4})\\b`)))) {
    const month = MONTHS.indexOf(r[1]!);
    const year = Number(r[2]);
    return { from: iso(year, month), to: iso(year, month + 1), label: `in ${cap(r[1]!)} ${year}`, span: span(r) };
  }
  if ((r = at(/\bsince (\d{4})\b/))) return { from: iso(Number(r[1]), 0), label: `since ${r[1]}`, span: span(r) };
  // A bare year, unless it is a quantity ("over 2000", "top 2000", "$2000", "between 1000 and 2000").
  if ((r = at(/\b(?:in|during|for) (\d{4})\b/)) || (r = at(/(?<!\b(?:over|above|under|below|than|least|most|top|bottom|first|which|between) |\$|\bbetween \$?\d+(?:\.\d+)?k? and \$?)\b(20\d\d|19\d\d)\b/))) {
    const year = Number(r[1]);
    return { from: iso(year, 0), to: iso(year + 1, 0), label: `in ${year}`, span: span(r) };
  }
  if ((r = at(/\b(?:(?:in|over|during) )?(?:the )?(last|past|previous) (\d+) (day|week|month|quarter|year)s?\b/))) {
    return rolling(Number(r[2]), r[3] as Unit, now, span(r), `in the last ${r[2]} ${r[3]}s`);
  }
  // "In the past year", "over the past month": the one unit counted back from today ("last year" is the calendar year before).
  if ((r = at(/\b(?:(?:in|over|during) )?the past (day|week|month|quarter|year)\b/))) return rolling(1, r[1] as Unit, now, span(r), `in the past ${r[1]}`);
  // "year to date", "QTD", "this month so far", "since the start of the year": the running unit's start through today.
  if ((r = at(/\b(?:(year|quarter|month) to date|([yqm])td|(?:this|current) (year|quarter|month) (?:so far|to date)|since the (?:start|beginning) of (?:the |this )?(year|quarter|month))\b/))) {
    const unit = r[1] ?? r[3] ?? r[4] ?? ({ y: 'year', q: 'quarter', m: 'month' } as Record<string, string>)[r[2]!]!;
    return { from: iso(y, unit === 'year' ? 0 : unit === 'quarter' ? m - (m % 3) : m), to: iso(y, m, d + 1), label: `this ${unit} to date`, span: span(r) };
  }
  if ((r = at(/\b(?:(?:over|during) the )?(last|previous|prior|this|current) (month|year|quarter|week)\b|\bthe (month|year|quarter|week) before\b/))) {
    const [which, unit] = r[1] ? [r[1], r[2]!] : ['previous', r[3]!];
    const prev = which !== 'this' && which !== 'current';
    const [label, rel] = [`${prev ? 'last' : 'this'} ${unit}`, prev && which !== 'last' ? { relative: unit as PeriodBucket } : {}];
    if (unit === 'month') return { from: iso(y, prev ? m - 1 : m), to: iso(y, prev ? m : m + 1), label, span: span(r), ...rel };
    if (unit === 'year') return { from: iso(prev ? y - 1 : y, 0), to: iso(prev ? y : y + 1, 0), label, span: span(r), ...rel };
    const q = Math.floor(m / 3) - (prev ? 1 : 0);
    if (unit === 'quarter') return { from: iso(y, q * 3), to: iso(y, q * 3 + 3), label, span: span(r), ...rel };
    // Weeks start on Monday.
    const monday = d - ((now.getUTCDay() + 6) % 7) - (prev ? 7 : 0);
    return { from: iso(y, m, monday), to: iso(y, m, monday + 7), label, span: span(r), ...rel };
  }
  if ((r = at(/\b(today|yesterday)\b/))) return { from: iso(y, m, d - Number(r[1] === 'yesterday')), to: iso(y, m, d + 1 - Number(r[1] === 'yesterday')), label: r[1]!, span: span(r) };
  return undefined;
}

type Unit = NonNullable<Period['rolling']>['unit'];

interface WholeUnits {
  from: string;
  to: string;
  label: string;
}

// Whole months and quarters in a year or a quarter, for the time counted back grouped by them.
const FINER: Partial<Record<Unit, Partial<Record<'month' | 'quarter', number>>>> = { year: { month: 12, quarter: 4 }, quarter: { month: 3 } };

/** The last `n` units counted back from today, and as many whole units (or finer ones) before the current one. */
function rolling(n: number, unit: Unit, now: Date, span: [number, number], label: string): Period {
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  const from = unit === 'day' ? iso(y, m, d + 1 - n) : unit === 'week' ? iso(y, m, d + 1 - 7 * n) : unit === 'month' ? iso(y, m - n, d + 1) : unit === 'quarter' ? iso(y, m - 3 * n, d + 1) : iso(y - n, m, d + 1);
  const whole = (u: Unit, k: number): WholeUnits => ({ ...wholeUnits(u, k, now), label: `in the last ${k === 1 ? '' : `${k} `}whole ${u}${k === 1 ? '' : 's'}` });
  const finer = Object.entries(FINER[unit] ?? {}).map(([u, per]) => [u, whole(u as Unit, n * per)] as const);
  return { from, to: iso(y, m, d + 1), label, span, rolling: { unit, whole: whole(unit, n), ...(finer.length > 0 ? { wholeBy: Object.fromEntries(finer) } : {}) } };
}

/** The `n` whole days, weeks (from Monday), months, quarters or years before the current one. */
function wholeUnits(unit: Unit, n: number, now: Date): { from: string; to: string } {
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  if (unit === 'day') return { from: iso(y, m, d - n), to: iso(y, m, d) };
  const [monday, q] = [d - ((now.getUTCDay() + 6) % 7), Math.floor(m / 3) * 3];
  if (unit === 'week') return { from: iso(y, m, monday - 7 * n), to: iso(y, m, monday) };
  if (unit === 'month') return { from: iso(y, m - n), to: iso(y, m) };
  if (unit === 'quarter') return { from: iso(y, q - 3 * n), to: iso(y, q) };
  return { from: iso(y - n, 0), to: iso(y, 0) };
}

const MONTH = `(${MONTHS.join('|')})`;
// A day named by its month: "october 15", "15th of october" (groups: month, day, day, month).
const DAY = `(?:${MONTH} (\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH})`;
const ISO_DAY = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const DAY_RANGE = new RegExp(`\\b(?:from |between )?${DAY}(?: (\\d{4}))? (?:to|through|until|and|-) ${DAY} (\\d{4})\\b`);
const ISO_RANGE = new RegExp(`\\b(?:from |between )?${ISO_DAY} (?:to|through|until|and|-) ${ISO_DAY}\\b`);
const ONE_DAY = new RegExp(`\\b(?:on )?${DAY}(?: (\\d{4}))?\\b`);
const ONE_ISO_DAY = new RegExp(`\\b(?:on )?${ISO_DAY}\\b`);
const QUARTER_WORDS = ['first', 'second', 'third', 'fourth'];
const QUARTER_NAMED = /\b(?:in |during )?(?:the )?(first|second|third|fourth|1st|2nd|3rd|4th) quarter(?: of)?(?: (\d{4}))?\b/;
const RANGE = new RegExp(`\\b(?:from |between )?${MONTH}(?: (\\d{4}))? (?:to|through|until|and|-) ${MONTH} (\\d{4})\\b`);
const HALF = /\b(?:in |during )?(?:the )?(?:h([12])|(first|second) half(?: of)?) (\d{4})\b/;
const QUARTER_ALONE = /\b(?:in |during )?(q[1-4])\b(?! \d)/;
const SINCE_MONTH = new RegExp(`\\bsince ${MONTH}(?: (\\d{4}))?\\b`);
const MONTH_ALONE = new RegExp(`\\b(?:in|during) ${MONTH}\\b(?! \\d)`);

/**
 * Periods named by months and halves: "January to March 2025", "H2 2024", "the first half of 2025";
 * and without a year, the latest that has begun ("since June", "in March", "Q1" in November 2026
 * are of 2026), with the year stated in the label.
 */
function namedPeriod(text: string, y: number, m: number, d: number): Period | undefined {
  const span = (r: RegExpExecArray): [number, number] => [r.index, r.index + r[0].length];
  const latest = (month: number) => (month <= m ? y : y - 1);
  let r: RegExpExecArray | null;
  const days = namedDays(text, y, m, d);
  if (days) return days;
  if ((r = QUARTER_NAMED.exec(text))) {
    const q = Math.max(QUARTER_WORDS.indexOf(r[1]!), ['1st', '2nd', '3rd', '4th'].indexOf(r[1]!));
    const year = r[2] ? Number(r[2]) : latest(q * 3);
    return { from: iso(year, q * 3), to: iso(year, q * 3 + 3), label: `in Q${q + 1} ${year}`, span: span(r) };
  }
  if ((r = RANGE.exec(text))) {
    const [first, last, year] = [MONTHS.indexOf(r[1]!), MONTHS.indexOf(r[3]!), Number(r[4])];
    const startYear = r[2] ? Number(r[2]) : year;
    if (startYear * 12 + first > year * 12 + last) return undefined;
    const label = `from ${cap(r[1]!)}${r[2] ? ` ${startYear}` : ''} to ${cap(r[3]!)} ${year}`;
    return { from: iso(startYear, first), to: iso(year, last + 1), label, span: span(r) };
  }
  if ((r = HALF.exec(text))) {
    const half = r[1] === '2' || r[2] === 'second' ? 1 : 0;
    const year = Number(r[3]);
    return { from: iso(year, half * 6), to: iso(year, half * 6 + 6), label: `in H${half + 1} ${year}`, span: span(r) };
  }
  if ((r = QUARTER_ALONE.exec(text))) {
    const q = Number(r[1]!.slice(1)) - 1;
    const year = latest(q * 3);
    return { from: iso(year, q * 3), to: iso(year, q * 3 + 3), label: `in Q${q + 1} ${year}`, span: span(r) };
  }
  if ((r = SINCE_MONTH.exec(text))) {
    const month = MONTHS.indexOf(r[1]!);
    const year = r[2] ? Number(r[2]) : latest(month);
    return { from: iso(year, month), label: `since ${cap(r[1]!)} ${year}`, span: span(r) };
  }
  if ((r = MONTH_ALONE.exec(text))) {
    const month = MONTHS.indexOf(r[1]!);
    const year = latest(month);
    return { from: iso(year, month), to: iso(year, month + 1), label: `in ${cap(r[1]!)} ${year}`, span: span(r) };
  }
  return undefined;
}

/**
 * Days and ranges of days: "on october 15 2026", "15th of october", "2026-10-15", "from january 1 to
 * march 31 2025", "2025-01-01 to 2025-03-31". Without a year, the latest such day that has begun.
 * A day that does not exist ("february 30") is not read, and its words stay unread.
 */
function namedDays(text: string, y: number, m: number, d: number): Period | undefined {
  const span = (r: RegExpExecArray): [number, number] => [r.index, r.index + r[0].length];
  const latest = (month: number, day: number) => (month < m || (month === m && day <= d) ? y : y - 1);
  const named = (r: RegExpExecArray, at: number) => ({ month: MONTHS.indexOf((r[at] ?? r[at + 3])!), day: Number(r[at + 1] ?? r[at + 2]) });
  let r: RegExpExecArray | null;
  if ((r = ISO_RANGE.exec(text))) {
    const [from, last] = [dayOf(Number(r[1]), Number(r[2]) - 1, Number(r[3])), dayOf(Number(r[4]), Number(r[5]) - 1, Number(r[6]))];
    return from && last && from <= last ? { from, to: nextDay(last), label: `from ${from} to ${last}`, span: span(r) } : undefined;
  }
  if ((r = DAY_RANGE.exec(text))) {
    const [a, b, year] = [named(r, 1), named(r, 6), Number(r[10])];
    const from = dayOf(r[5] ? Number(r[5]) : year, a.month, a.day);
    const last = dayOf(year, b.month, b.day);
    return from && last && from <= last ? { from, to: nextDay(last), label: `from ${from} to ${last}`, span: span(r) } : undefined;
  }
  if ((r = ONE_ISO_DAY.exec(text))) {
    const day = dayOf(Number(r[1]), Number(r[2]) - 1, Number(r[3]));
    return day ? { from: day, to: nextDay(day), label: `on ${day}`, span: span(r) } : undefined;
  }
  if ((r = ONE_DAY.exec(text))) {
    const { month, day: date } = named(r, 1);
    const day = dayOf(r[5] ? Number(r[5]) : latest(month, date), month, date);
    return day ? { from: day, to: nextDay(day), label: `on ${day}`, span: span(r) } : undefined;
  }
  return undefined;
}

/** The day as YYYY-MM-DD, or undefined when the month has no such day. */
function dayOf(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month, day));
  return month >= 0 && month < 12 && date.getUTCMonth() === month && date.getUTCDate() === day ? date.toISOString().slice(0, 10) : undefined;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
