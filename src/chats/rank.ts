// BM25 scoring of a window of candidate messages, done here rather than with FTS5's bm25(): that
// function counts every document holding each phrase (the owner's scope token holds all of them),
// which costs time in proportion to the whole history. Every candidate matches every term, so the
// inverse document frequency is left out; term frequency and length decide.
import escapeHtml from 'escape-html';

const K1 = 1.2;
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const B = 0.75;

// Plain ASCII (most bodies) needs no Unicode normalization, which is the slow part, and its letters
// and digits are [A-Za-z0-9]: a plain character class splits it faster than \p{L}.
// eslint-disable-next-line no-control-regex
const isAscii = (text: string) => /^[\u0000-\u007f]*$/.test(text);

/** Tokens as FTS5's unicode61 tokenizer (remove_diacritics 2) sees them: folded, without accents. */
export function tokens(text: string): string[] {
  if (isAscii(text)) return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** How often the tokens `parts` occur in a row in `doc`, the last one as a prefix with `prefix`. */
function occurrences(doc: string[], parts: string[], prefix: boolean): number {
  const last = parts.length - 1;
  let tf = 0;
  for (let at = 0; at + last < doc.length; at++) {
    let j = 0;
    while (j < last && doc[at + j] === parts[j]) j++;
    if (j === last && (prefix ? doc[at + j]!.startsWith(parts[j]!) : doc[at + j] === parts[j])) tf++;
  }
  return tf;
}

/** Scores each body for the query words (with `prefix`, the last as a prefix). Higher is better. */
export function scoreBodies(bodies: string[], words: string[], { prefix: lastIsPrefix = false }: { prefix?: boolean } = {}): number[] {
  // Each word's tokens, split once for all bodies (a word such as foo-bar is a phrase of two).
  const terms = words.map((w) => tokens(w)).filter((parts) => parts.length > 0);
  const docs = bodies.map(tokens);
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(docs.length, 1) || 1;
  return docs.map((doc) => {
    let score = 0;
    terms.forEach((parts, i) => {
      const tf = occurrences(doc, parts, lastIsPrefix && i === terms.length - 1);
      score += (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg));
    });
    return score;
  });
}

const WORD = /[\p{L}\p{N}]+/gu;
const ASCII_WORD = /[A-Za-z0-9]+/g;

/**
 * An HTML-safe excerpt of about `size` words around the first match, the matched words in <mark>.
 * Built here from the body rather than with FTS5's snippet(), which re-runs the query per hit.
 */
export function excerpt(body: string, words: string[], { prefix = false, size = 16 }: { prefix?: boolean; size?: number } = {}): string {
  const parts = words.map((w, i) => ({ tokens: tokens(w), prefix: prefix && i === words.length - 1 }));
  const exact = new Set(parts.filter((p) => !p.prefix).flatMap((p) => p.tokens));
  const last = parts.find((p) => p.prefix)?.tokens ?? [];
  const prefixes = last.slice(-1);
  last.slice(0, -1).forEach((t) => exact.add(t));
  // The same words and folding as WORD and fold(), without Unicode work for an ASCII body.
  const ascii = isAscii(body);
  const spans = [...body.matchAll(ascii ? ASCII_WORD : WORD)].map((m) => {
    const t = ascii ? m[0].toLowerCase() : fold(m[0]);
    return { start: m.index, end: m.index + m[0].length, hit: exact.has(t) || prefixes.some((p) => t.startsWith(p)) };
  });
  if (spans.length === 0) return '';
  const first = Math.max(spans.findIndex((s) => s.hit), 0);
  const from = Math.max(0, Math.min(first - 4, spans.length - size));
  const window = spans.slice(from, from + size);
  let out = from > 0 ? '…' : '';
  let at = window[0]!.start;
  for (const s of window) {
    out += escapeHtml(body.slice(at, s.start).replace(/\s+/g, ' '));
    out += s.hit ? `<mark>${escapeHtml(body.slice(s.start, s.end))}</mark>` : escapeHtml(body.slice(s.start, s.end));
    at = s.end;
  }
  return from + size < spans.length ? `${out}…` : out;
}
