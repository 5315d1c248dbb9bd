// The first things a newcomer types: `sextant` alone, or a command misspelt. Anything else that is
// not a command is a question (`sextant "revenue by country"`), so these are decided before parsing.

/** Global options that take a value: their value is not a positional argument. */
const VALUE_OPTIONS = new Set(['--server', '--token', '--env']);

/** The arguments that are not options (nor option values). */
export function positionals(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i + 1)];
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) out.push(arg);
  }
  return out;
}

/** True for `sextant` with no command, no question and no --help/--version: it prints the usage. */
export function isBare(argv: string[]): boolean {
  return positionals(argv).length === 0 && !argv.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
}

/**
 * The command a single word was probably meant to be (`catalg` -> `catalog`), or undefined: only one
 * word, not itself a command, at most two edits from one (one for short words).
 */
export function misspeltCommand(argv: string[], commands: string[]): string | undefined {
  const words = positionals(argv);
  const word = words[0]?.toLowerCase();
  if (words.length !== 1 || !word || !/^[a-z-]{3,}$/.test(word) || commands.includes(word)) return undefined;
  const limit = word.length <= 4 ? 1 : 2;
  const scored = commands.map((c) => ({ c, d: distance(word, c) })).filter((x) => x.d <= limit);
  return scored.sort((a, b) => a.d - b.d)[0]?.c;
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
