// The words of a question: normalized text, which characters were understood, and the words left
// over. A word that is neither understood nor a filler ("the", "did", "placed"...) makes the question
// one the offline model cannot map completely, so it refuses rather than answer a different question.

// Months as people shorten them, read as months only where a period is: before a year or a day
// ("jan 2025", "mar 15"), or after a word that opens one ("in jan", "from jan to mar"). A customer
// named Jan stays Jan.
const SHORT_MONTHS: Record<string, string> = { jan: 'january', feb: 'february', mar: 'march', apr: 'april', jun: 'june', jul: 'july', aug: 'august', sep: 'september', sept: 'september', oct: 'october', nov: 'november', dec: 'december' };
const SHORT_MONTH = String.raw`(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)`;
const MONTH_BEFORE_DATE = new RegExp(String.raw`\b${SHORT_MONTH}(?= \d{4}\b| \d{1,2}(?:st|nd|rd|th)?\b)`, 'g');
const MONTH_AFTER_WORD = new RegExp(String.raw`(?<=\b(?:in|from|to|between|since|until|till|through|and|before|after|during|vs|versus) )${SHORT_MONTH}\b`, 'g');
const withMonthNames = (text: string) => text.replace(MONTH_BEFORE_DATE, (m) => SHORT_MONTHS[m]!).replace(MONTH_AFTER_WORD, (m) => SHORT_MONTHS[m]!);

/** Lower case, thousands separators and punctuation out, single spaces, shortened months written out. */
export const normalize = (q: string) =>
  withMonthNames(
    q
      .toLowerCase()
      // Each separator of "1,000,000" (a match may not take the digits the next one starts with), and
      // only before exactly three digits: "2024,2025" stays two years.
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      .replace(/[?!;:,"()]/g, ' ')
      .replace(/\.(?!\d)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

// Words that carry no meaning a query could miss. Numbers, negations ("not", "except"), verbs that
// name a relation ("bought", "sold") and words such as "new", "per", "share" or "growth" are
// deliberately absent.
export const FILLER: ReadonlySet<string> = new Set(
  `a an the of in on at for from to with by and or as into through across within during
  what what's whats which who whose how when where is are was were be been being do does did done have has had there here
  it its this that these those we our ours us i me my you your they their them all any each every so far ever currently please
  can could would show give tell list display see find get got receive received make made bring brought generate generated
  earn earned place placed come comes came happen happened sign signed up
  about same instead just only also again then now still overall altogether whole entire breakdown broken down split grouped one ones
  data figure figures compare
  thanks thank thx cheers hi hello hey pls kindly`.split(/\s+/),
);

/**
 * Words that turn a question around. Never read as another word: "which products have never been
 * ordered" read with "ever" (one letter away, and a filler) would list the products most ordered.
 */
export const NEGATIONS: ReadonlySet<string> = new Set(
  `not never no none nobody nothing neither nor without except excluding exclude excluded unless non cannot
  isn't aren't wasn't weren't don't doesn't didn't haven't hasn't hadn't can't won't`
    .split(/\s+/)
    .flatMap((w) => [w, w.replace(/'/g, ''), w.replace(/'/g, '\u2019')]),
);

/** Marks the characters of a text that were understood. */
export class Marks {
  private readonly taken: boolean[];
  constructor(readonly text: string) {
    this.taken = new Array<boolean>(text.length).fill(false);
  }

  take(start: number, end: number): void {
    for (let i = start; i < end; i++) this.taken[i] = true;
  }

  /** The text with understood characters blanked out. */
  blanked(): string {
    return [...this.text].map((c, i) => (this.taken[i] ? ' ' : c)).join('');
  }

  /** Takes the first match of `re` in the blanked text; returns it. */
  takeMatch(re: RegExp): RegExpExecArray | null {
    const m = re.exec(this.blanked());
    if (m) this.take(m.index, m.index + m[0].length);
    return m;
  }

  /** Words not understood and not fillers. */
  unknownWords(): string[] {
    return this.blanked()
      .split(' ')
      .filter((w) => w.length > 0 && !FILLER.has(w));
  }
}
