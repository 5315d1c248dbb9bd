// Ordinary wording made readable before a question is refused for words it does not know: phrasings
// ("break down ... by", "in total", "share of ... by", "... share by", "what share of ... comes from each", "most expensive"), numbers written as words,
// verbs the knowledge uses in another form ("sell" where it says "units sold"), and typos near exactly
// one known word.
// Only a question with unknown words comes here, so canonical questions never pay for the language
// library. A typo's reading is stated in the answer; two equally close readings refuse the question.
import { nearest } from '../../shared/typos.ts';
import { termOf, verbForms, withDigits } from './language.ts';
import { MONTHS } from './periods.ts';
import { countsEveryRow, findMentions, isDimension, knowsWord, listedValues, vocabularyWords, type Schema } from './vocabulary.ts';
import { FILLER, NEGATIONS } from './words.ts';

export type Repair = { kind: 'repaired'; text: string; readings: string[] } | { kind: 'ambiguous'; detail: string };

// Each rewrite says the same thing in the words the reader knows.
const PHRASINGS: [RegExp, string][] = [
  [/\bbreak(?:ing)? (.+?) down by\b/g, '$1 by'],
  [/\b(?:break(?:ing)?|broken) down\b/g, ''],
  [/\bbreakdown of\b/g, ''],
  [/\bin total\b/g, ''],
  [/^(?:the )?(?:share|percentage|percent|proportion|fraction) of (.+) (by|per|for each|across) (.+)$/, '$1 $2 $3 as a share of the total'],
  // "revenue share by country", "order percentages per channel", "the sales mix by category".
  [/^(?:the )?(.+?) (?:shares?|percentages?|proportions?|mix) (by|per|for each|across) (.+)$/, '$1 $2 $3 as a share of the total'],
  // "how many customers did we acquire in 2024", "customers we gained last month": the new ones (read-question.ts).
  // Not "get": "how many customers have we got in total" asks for all of them.
  [/^how many (.+?) (?:did|do|have|had) we (?:acquired?|gain(?:ed)?|win|won|add(?:ed)?|onboard(?:ed)?|sign(?:ed)? up)\b/, 'how many new $1'],
  [/^(?:the )?(?:number of )?([a-z]+) (?:that |which )?we (?:acquired|gained|won|added|onboarded|signed up)\b/, 'new $1'],
  // "how many orders does a customer place on average", "how many orders do customers make on average".
  [/^how many (.+?) (?:does|did|do) (?:(?:a|an|each|every|one|the average|an average|our|the) )?([a-z]+)(?: (?:place|make|have|get|buy|order|submit|create|open)s?)? on average\b/, 'average number of $1 per $2'],
  // "what share of revenue comes from each channel", "what fraction of our revenue came from every country".
  [/^(?:what|which|how much) (?:(?:share|percentage|proportion|fraction|part) )?of (?:our |the )?(.+?) (?:comes?|came|is|was) (?:from|in) (?:each|every) (.+)$/, '$1 by $2 as a share of the total'],
  // "the month with the lowest revenue", "highest revenue month": the ranked periods' own wording, only
  // as the whole question ("revenue in the month with the most orders" asks for a period chosen by another measure).
  [/^(?:(?:what|which) (?:is|was) )?(?:the |our )?(day of the week|weekday|day|week|month|quarter|year) with the (highest|lowest|most|fewest|best|worst)\b/, 'which $1 had the $2'],
  // Not a period the question names ("the best selling product last year" ranks products in that year).
  [/^(?:(?:what|which) (?:is|was) )?(?:the |our )?(highest|lowest|best|worst) ([a-z][a-z ]*?)(?<!\b(?:last|this|next|previous|past|current|per|each|every|a|that)) (day of the week|weekday|day|week|month|quarter|year)\b/, 'which $3 had the $1 $2'],
];

// The reader's own words (read-question.ts, periods.ts), which a typo may stand for as well.
const READER_WORDS = `average maximum minimum number count total highest lowest largest smallest biggest greatest fewest least
  earliest oldest latest newest recent daily weekly monthly quarterly yearly annual annually quarter month year week
  top bottom first most over above under below greater less than thousands millions billions percentage`.split(/\s+/);

/** The question (normalized) with its unknown words repaired, or undefined when nothing could be. */
export function repairWords(text: string, unknown: string[], schema: Schema): Repair | undefined {
  const numbers = unknown.some((w) => termOf(w).numberWord);
  const phrased = PHRASINGS.reduce((t, [re, by]) => t.replace(re, by), numbers ? withDigits(text) : text);
  const readings: string[] = [];
  let out = rates(busiest(bestSelling(priced(phrased, schema), schema), schema, readings), schema, readings).replace(/\s+/g, ' ').trim();
  const left = unknown.filter((w) => out.includes(w));
  const known = vocabularyWords(schema);
  const candidates = new Set([...known.keys(), ...FILLER, ...READER_WORDS, ...MONTHS]);
  // The tables the question names, worked out only for a verb (most repairs have none).
  let named: Set<unknown> | undefined;
  const asWritten = out;
  for (const word of new Set(left)) {
    // A negation is never another word; nor are the ranking words read but not applied ("bottom 5",
    // "which 3"): "bottom 5" is two edits from "bottom", which would drop the number.
    if (NEGATIONS.has(word) || /[\s\d]/.test(word)) continue;
    const term = termOf(word);
    // A verb the knowledge uses, of a table the question names, relates what the question names
    // ("which products sold the most units", where "units sold" are order items): it adds no
    // condition of its own. Of another table it would ("how many products did we sell"), so it stays.
    if (term.verb) named ??= new Set(findMentions(asWritten, schema).map((m) => m.table));
    if (term.verb && verbForms(term.root).some((f) => [...(known.get(f) ?? [])].some((t) => named!.has(t)))) {
      out = replaceWord(out, word, '');
      continue;
    }
    // A verb the dictionary knows is no typo: "given" is read as its own "give", but "bought" is not
    // "brought": what it would relate is left for the question to be refused on, not read away.
    if (term.verb && candidates.has(term.root) && term.root !== word) {
      out = replaceWord(out, word, term.root);
      continue;
    }
    if (term.verb || term.numberWord || candidates.has(word)) continue;
    const near = nearest(word, candidates);
    // In a fixed order, whichever order the knowledge found them in.
    if (near.length > 1) return { kind: 'ambiguous', detail: `"${word}" could be ${near.sort().map((w) => `"${w}"`).join(' or ')}` };
    if (near.length === 1) {
      out = replaceWord(out, word, near[0]!);
      readings.push(`Reading '${word}' as '${near[0]}'.`);
    }
  }
  out = out.replace(/\s+/g, ' ').trim();
  return out === text ? undefined : { kind: 'repaired', text: out, readings };
}

const EXPENSIVE = 'most expensive|priciest|dearest';
const CHEAP = 'least expensive|cheapest';

/**
 * "the 3 cheapest products", "which product is the most expensive", "which 5 products are the
 * cheapest": the rows of a named table ranked by their price. Only rows: a price of a category (its
 * average? its highest?) is not one reading, so "the most expensive category" is left unread.
 */
function priced(text: string, schema: Schema): string {
  const rows = (word: string) => findMentions(word, schema).some((m) => m.kind === 'table' && m.start === 0 && m.end === word.length);
  const rank = (how: string, n: string, word: string, whole: string) => (rows(word) ? `${new RegExp(CHEAP).test(how) ? 'bottom' : 'top'} ${n} ${word} by price` : whole);
  return text
    .replace(new RegExp(`\\b(?:the )?(\\d+ )?(${EXPENSIVE}|${CHEAP}) (\\w+)`, 'g'), (whole, n: string | undefined, how: string, word: string) => rank(how, (n ?? '1').trim(), word, whole))
    .replace(new RegExp(`\\b(?:which|what) (\\d+ )?(\\w+) (?:is|was|are|were) the (${EXPENSIVE}|${CHEAP})\\b`, 'g'), (whole, n: string | undefined, word: string, how: string) => rank(how, (n ?? '1').trim(), word, whole));
}

/**
 * "the best selling product", "top 5 selling products", "which product sold the most", "which product
 * category sells best", "the best selling category", "the most popular product" (popular by the units sold), and the other end ("the
 * worst selling product", "the least popular category", "the 3 least sold products"): the rows of a named
 * table, or the values of a named column, ranked by the units sold, where the knowledge has units
 * ("units sold"); elsewhere what "selling" counts is not one reading, and the words stay unread. One
 * row for a word in the singular without a count; every row, ranked, for "the top selling products";
 * a handful for "the least popular products", as for "the bottom products".
 */
function bestSelling(text: string, schema: Schema): string {
  if (!knowsWord(schema, 'units')) return text;
  // A table's rows ("products") or the values of a column people group by ("category").
  const rows = (word: string) => findMentions(word, schema).some((m) => (m.kind === 'table' || (m.kind === 'column' && isDimension(m.column))) && m.start === 0 && m.end === word.length);
  const rank = (n: string | undefined, word: string, whole: string, end = 'top') => (!rows(word) ? whole : n || !word.endsWith('s') ? `${end} ${n ?? '1'} ${word} by units` : end === 'top' ? `units by ${word}` : `bottom ${word} by units`);
  // "the best selling product category": a column of two words before one word.
  const ranked = (n: string | undefined, two: string, one: string, rest: string | undefined, whole: string, end: string) => (rows(two) ? rank(n, two, whole, end) : `${rank(n, one, whole.slice(0, whole.length - (rest ? rest.length + 1 : 0)), end)}${rest ? ` ${rest}` : ''}`);
  const endOf = (word: string) => (/^(worst|bottom|least)$/.test(word) ? 'bottom' : 'top');
  return text
    .replace(/\b(?:the )?(?:(?:best|top|worst|bottom) )?(?:(\d+) )?(best|top|worst|bottom)[ -]?selling ((\w+)(?: (\w+))?)/g, (whole, n: string | undefined, end: string, two: string, one: string, rest: string | undefined) => ranked(n, two, one, rest, whole, endOf(end)))
    .replace(/\b(?:the )?(best|top|worst|bottom) (\d+) selling (\w+)/g, (whole, end: string, n: string, word: string) => rank(n, word, whole, endOf(end)))
    .replace(/\b(?:the )?(?:(\d+) )?(most|least) (?:sold|popular) (\w+)/g, (whole, n: string | undefined, end: string, word: string) => rank(n, word, whole, endOf(end)))
    .replace(/\b(?:which|what) (?:(\d+) )?((\w+)(?: (\w+))?) (?:sold|sells|sell) (?:the )?(most|best|least|worst)(?=$| (?:in|during|last|this|over|since|between|from|before|after)\b)/g, (whole, n: string | undefined, two: string, one: string, second: string | undefined, end: string) =>
      rows(two) ? rank(n, two, whole, endOf(end)) : !second && rows(one) ? rank(n, one, whole, endOf(end)) : whole,
    );
}

// "the busiest day of the week", "what was the quietest month in 2025": a time unit ranked by how many rows.
const BUSY = /\b(?:the |our )?(busiest|quietest|slowest) (day of (?:the )?week|weekday|day|week|month|quarter|year)\b/;

/**
 * "The busiest day of the week" ranks a time unit by a count of rows: of the one table the question
 * names, or else of the one table the knowledge counts with a governed metric of every row (the
 * demo's order count), said so. With none or several, what is busy is not one reading: left unread.
 */
function busiest(text: string, schema: Schema, readings: string[]): string {
  const m = BUSY.exec(text);
  if (!m) return text;
  const named = new Set(findMentions(text, schema).filter((x) => x.kind === 'table').map((x) => x.table));
  const counted = named.size > 0 ? [...named] : schema.tables.filter((t) => (t.metrics ?? []).some(countsEveryRow));
  if (counted.length !== 1) return text;
  const [most, rows] = [m[1] === 'busiest' ? 'most' : 'fewest', counted[0]!.name.replace(/_/g, ' ')];
  if (named.size === 0) readings.push(`Reading '${m[1]}' as the ${most} ${rows}.`);
  return text.replace(m[0], `which ${m[2]} has the ${most} ${named.size === 0 ? rows : ''}`);
}

const RATE = /\b([a-z]{4,}) rates?\b/g;

/**
 * "the cancellation rate", "return rate by channel": the share of a table's rows with the value of a
 * listed column that the word names ("cancellation": 'cancelled', "return": 'returned'), read as
 * "the percentage of orders cancelled" (share-of.ts) and said so. Left unread when no value, or more
 * than one, is named by the word.
 */
function rates(text: string, schema: Schema, readings: string[]): string {
  return text.replace(RATE, (whole, word: string) => {
    if (findMentions(word, schema).length > 0) return whole;
    const stem = word.replace(/(?:l?ation|ion|ing|als?|s)$/, '');
    const found = schema.tables.flatMap((table) => table.columns.filter(isDimension).flatMap((column) => listedValues(column).filter((v) => stem.length >= 4 && v.toLowerCase().startsWith(stem)).map((value) => ({ table, column, value }))));
    if (found.length !== 1) return whole;
    const { table, column, value } = found[0]!;
    readings.push(`Reading '${whole}' as the share of ${table.name.replace(/_/g, ' ')} whose ${column.name.replace(/_/g, ' ')} is '${value}'.`);
    return `percentage of ${table.name.replace(/_/g, ' ')} ${value.toLowerCase()}`;
  });
}

/**
 * Words for one more search of the knowledge when the question's unknown longer words may be typos:
 * the known word each one is read as, when there is exactly one ("ordres" → orders: found in a
 * metric's name, it may also name a table the first search missed), and the word's pieces ("contry"
 * → cont, ontr, ntry). The search matches whole words, so a misspelt table name finds nothing, and
 * there would be nothing to read the typo as. Empty when every word is known here.
 */
export function searchFragments(text: string, schema: Schema): string[] {
  // A typo of the reader's own words ("milions") is repaired without the knowledge: searching its
  // pieces would only crowd the documents the question needs out of the results.
  const own = [...READER_WORDS, ...MONTHS];
  const unknown = text.split(' ').filter((w) => w.length > 4 && /^[a-z]+$/.test(w) && !FILLER.has(w) && !own.includes(w) && nearest(w, own).length === 0 && !knowsWord(schema, w));
  if (unknown.length === 0) return [];
  const known = [...vocabularyWords(schema).keys()];
  const readings = unknown.flatMap((w) => {
    const near = nearest(w, known);
    return near.length === 1 ? near : [];
  });
  return [...new Set([...readings, ...unknown.flatMap((w) => Array.from({ length: w.length - 3 }, (_, i) => w.slice(i, i + 4)))])];
}

const replaceWord = (text: string, word: string, by: string) => text.replace(new RegExp(`(?<![\\w'])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w'])`, 'g'), by);
