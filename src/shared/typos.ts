// How far a typo may be from the word it stands for, as people mistype: the offline model reads a
// misspelt word as its nearest known one (agent/offline/repair.ts), and the knowledge search finds the
// items of that nearest word for a term that matches nothing (knowledge/snapshot.ts), so a table named
// only by a typo ("revnue by country") is found for the model to read it.
import { distance } from 'fastest-levenshtein';

/** Edits allowed for a typo: none in a short word (where one edit makes another word), more in longer ones. */
export const allowedEdits = (word: string) => (word.length <= 4 ? 0 : word.length <= 7 ? 1 : 2);

/** Edit distance where swapping two neighbouring letters ("ordres") is one edit. */
function edits(a: string, b: string): number {
  const d = distance(a, b);
  if (d !== 2 || a.length !== b.length) return d;
  const i = [...a].findIndex((c, k) => c !== b[k]);
  return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2) ? 1 : d;
}

/** The candidates closest to a misspelt word, within the edits its length allows (several when tied). */
export function nearest(word: string, candidates: Iterable<string>): string[] {
  const limit = allowedEdits(word);
  let best = limit + 1;
  let found: string[] = [];
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) > limit || c.length < 3) continue;
    const d = edits(word, c);
    if (d < best) [best, found] = [d, [c]];
    else if (d === best) found.push(c);
  }
  return best <= limit ? found : [];
}
