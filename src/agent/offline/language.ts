// English as people write it, through the `compromise` library: each word's part of speech and
// lemma ("sold" is the verb "sell"), a verb's other forms, and numbers written as words. The
// library takes about a second to load and most questions never need it (their words are all
// vocabulary), so it is loaded on first use, once per process, and synchronously: the planner is.
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

type Nlp = typeof nlpType;

let loaded: Nlp | undefined;
const nlp = (): Nlp => (loaded ??= createRequire(import.meta.url)('compromise') as Nlp);

export interface Term {
  text: string;
  /** The lemma: the infinitive of a verb, the singular of a noun; the word itself otherwise. */
  root: string;
  verb: boolean;
  /** A number written as a word ("five", "hundred"). */
  numberWord: boolean;
}

/** The words of a (normalized) text with their lemma and part of speech. */
export function termsOf(text: string): Term[] {
  const doc = nlp()(text);
  doc.compute('root');
  const json = doc.json() as { terms: { text: string; root?: string; normal?: string; tags: string[] }[] }[];
  return json.flatMap((s) =>
    s.terms.map((t) => ({ text: t.text, root: t.root ?? t.normal ?? t.text, verb: t.tags.includes('Verb'), numberWord: t.tags.includes('TextValue') })),
  );
}

/** The text with numbers written as words in digits ("top five" → "top 5"). */
export function withDigits(text: string): string {
  const doc = nlp()(text);
  doc.numbers().toNumber();
  return doc.text().toLowerCase();
}

/** Every form of a verb, by its infinitive: "sell" → sell, sells, sold, selling. */
export function verbForms(infinitive: string): string[] {
  const forms = nlp()(infinitive).verbs().conjugate()[0] as Record<string, string> | undefined;
  return [infinitive, ...Object.values(forms ?? {})].map((f) => f.toLowerCase());
}
