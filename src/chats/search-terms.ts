// Search as you type without FTS5's prefix merge: the last word, taken as a prefix, becomes the
// indexed words it completes to (chat_messages_terms, migration 0119), which search-matches.ts ORs
// together. The same messages match either way (a prefix query matches exactly the indexed words with
// those leading bytes), but an OR of whole words is read lazily in rowid order and stops at the newest
// RANK_WINDOW matches, where `"rev"*` first merges every completion's whole doclist (at a million
// messages: 0.4 ms against 28 ms of CPU).
import { sql } from 'kysely';
import type { Executor } from '../store/index.ts';

/**
 * At most this many completions, or the prefix query runs: each costs an iterator per index segment,
 * ~50 µs alone and up to ~0.6 ms where other words must be matched alongside (measured at a million
 * messages), so past these the prefix merge is the cheaper of the two.
 */
const MAX_COMPLETIONS = { alone: 64, withOtherWords: 16 };

/**
 * The indexed words the last query word completes to, or undefined when the prefix query must run:
 * the word is not one plain ASCII token (only then is its folded form certain without the tokenizer:
 * lower case), it has too many completions, or a search indexed messages whose words the drain has
 * not learnt yet (migration 0122).
 */
export async function completions(x: Executor, words: string[]): Promise<string[] | undefined> {
  const last = words[words.length - 1];
  if (last === undefined || !/^[A-Za-z0-9]+$/.test(last)) return undefined;
  if (await x.one(sql`SELECT 1 AS unlearnt FROM chat_messages_terms_pending LIMIT 1`)) return undefined;
  const prefix = last.toLowerCase();
  // Every term starting with `prefix`, in byte order: from it up to the prefix with its last byte raised.
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const max = words.length === 1 ? MAX_COMPLETIONS.alone : MAX_COMPLETIONS.withOtherWords;
  const terms = await x.all<{ term: string }>(sql`SELECT term FROM chat_messages_terms WHERE term >= ${prefix} AND term < ${end} ORDER BY term LIMIT ${max + 1}`);
  return terms.length > max ? undefined : terms.map((t) => t.term);
}
