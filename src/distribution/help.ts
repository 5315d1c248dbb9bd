// Answers questions about the product from its own documentation (README and docs/), with no model
// call: the documents are split into sections and ranked by BM25 over their words.
import { readdirSync, readFileSync } from 'node:fs';

export interface HelpSection {
  title: string;
  source: string;
  text: string;
}

export interface HelpAnswer {
  answer: string;
  sources: { title: string; source: string }[];
}

const root = new URL('../../', import.meta.url);
const words = (s: string) => s.toLowerCase().match(/[a-z0-9_]{2,}/g) ?? [];
const STOP = new Set(['the', 'and', 'for', 'how', 'do', 'does', 'what', 'is', 'to', 'of', 'in', 'an', 'can', 'with', 'my', 'on', 'it', 'be', 'or', 'are', 'this', 'that', 'as', 'by']);

/** Splits the README and docs/*.md into sections at their headings. */
export function loadHelpSections(): HelpSection[] {
  const files = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return files.flatMap((source) => {
    const text = readFileSync(new URL(source, root), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
    const parts = text.split(/^(?=#{1,3} )/m);
    return parts
      .map((part) => ({ title: (/^#{1,3} (.*)$/m.exec(part)?.[1] ?? source).trim(), source, text: part.replace(/^#{1,3} .*\n/, '').trim() }))
      .filter((s) => s.text.length > 0);
  });
}

/** A ranked index over the sections. */
export function createHelpIndex(sections: HelpSection[] = loadHelpSections()) {
  const docs = sections.map((s) => words(`${s.title} ${s.title} ${s.text}`));
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const score = (terms: string[], d: string[]) =>
    terms.reduce((sum, term) => {
      const tf = d.filter((w) => w === term).length;
      if (tf === 0) return sum;
      const idf = Math.log(1 + (docs.length - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
      return sum + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (d.length / avg)));
    }, 0);
  return {
    /** The best sections for a question, or a pointer to the reference when nothing matches. */
    answer(question: string): HelpAnswer {
      const terms = [...new Set(words(question).filter((w) => !STOP.has(w)))];
      const ranked = sections.map((s, i) => ({ s, score: score(terms, docs[i]!) })).filter((r) => r.score > 0).sort((a, b) => b.score - a.score).slice(0, 2);
      if (ranked.length === 0) {
        return { answer: 'The documentation has nothing on that. The API reference is at /docs; `sextant --help` lists every command.', sources: [] };
      }
      return {
        answer: ranked.map((r) => `## ${r.s.title}\n\n${r.s.text}`).join('\n\n'),
        sources: ranked.map((r) => ({ title: r.s.title, source: r.s.source })),
      };
    },
  };
}
