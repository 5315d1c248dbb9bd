// English as people write it, through the `compromise` library: a word's part of speech and lemma
// ("sold" is the verb "sell"), a verb's other forms, and numbers written as words. The library takes
// about a second to load and most questions never need it (their words are all vocabulary), so it
// is loaded on first use, once per process, and synchronously: the planner is.
//
// Words are read from the library's lexicon and its inflection rules, not by tagging the sentence:
// tagging a question costs about 1.5 ms, ten times the planner's whole reading of it (see
// bench/evaluations.ts), while a lexicon lookup costs microseconds. Only the words the knowledge
// does not know are looked up, and these are read as words: a verb form ("sold", "ordered") and a
// number word ("five") are such out of context too.
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

type Nlp = typeof nlpType;

interface Library {
  nlp: Nlp;
  lexicon: Record<string, string | string[]>;
  /** Each tag with the tags it is a kind of ("PastTense" is a "Verb"). */
  parents: Record<string, { parents?: string[] }>;
  toInfinitive: (word: string, model: unknown, tense?: string) => string;
  conjugate: (infinitive: string, model: unknown) => Record<string, string>;
  model: unknown;
}

let loaded: Library | undefined;
function library(): Library {
  if (loaded) return loaded;
  const nlp = createRequire(import.meta.url)('compromise') as Nlp;
  const model = nlp.model() as { one: { lexicon: Library['lexicon']; tagSet: Library['parents'] } };
  const verb = (nlp.methods() as { two: { transform: { verb: Pick<Library, 'toInfinitive' | 'conjugate'> } } }).two.transform.verb;
  return (loaded = { nlp, lexicon: model.one.lexicon, parents: model.one.tagSet, toInfinitive: verb.toInfinitive, conjugate: verb.conjugate, model });
}

export interface Term {
  text: string;
  /** The lemma: the infinitive of a verb; the word itself otherwise. */
  root: string;
  verb: boolean;
  /** A number written as a word ("five", "hundred", "second"). */
  numberWord: boolean;
}

const VERB_FORMS = new Set(['Infinitive', 'PastTense', 'PresentTense', 'Gerund', 'Participle', 'PerfectTense']);
const NUMBER_WORDS = new Set(['TextValue', 'Multiple']);

/** A (normalized) word with its lemma and part of speech, from the lexicon. */
export function termOf(word: string): Term {
  const lib = library();
  const found = lib.lexicon[word];
  const tags = found === undefined ? [] : typeof found === 'string' ? [found] : found;
  const verbTag = tags.find((t) => VERB_FORMS.has(t) || lib.parents[t]?.parents?.includes('Verb'));
  const root = verbTag ? lib.toInfinitive(word, lib.model, verbTag) : word;
  return { text: word, root, verb: verbTag !== undefined, numberWord: tags.some((t) => NUMBER_WORDS.has(t)) };
}

// Kinds of words that name no thing: a value in the data ("Munich", "Yara Smith", "Widget") is a noun.
const NOT_NAMES = ['Verb', 'Adjective', 'Adverb', 'Preposition', 'Determiner', 'Pronoun', 'Conjunction', 'Negative', 'Value', 'Date', 'QuestionWord', 'Expression'];

/** Whether a (normalized) word may name a value in the data: it has a letter and the lexicon knows it as no other kind of word. */
export function mayBeName(word: string): boolean {
  if (!/\p{L}/u.test(word)) return false;
  const lib = library();
  const found = lib.lexicon[word];
  const tags = found === undefined ? [] : typeof found === 'string' ? [found] : found;
  return !tags.some((t) => NOT_NAMES.includes(t) || NOT_NAMES.some((n) => lib.parents[t]?.parents?.includes(n)));
}

const digits = new Map<string, string>();
const SCALE = /^(?:hundred|thousand|million|billion)$/;
const NUMBER = /^\d+(?:\.\d+)?$/;
/** Number phrases kept in digits; people write few distinct ones ("five", "second", "twenty one"). */
const MAX_PHRASES = 1000;

/**
 * The text (normalized) with numbers written as words in digits ("top five" → "top 5"). Each run of
 * number words ("one hundred and five") is converted by the library on its own, once per phrase:
 * parsing the whole question would cost a milliseconds-long tagging for a few words.
 */
export function withDigits(text: string): string {
  const words = text.split(' ');
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let end = i;
    while (end < words.length && (termOf(words[end]!).numberWord || (words[end] === 'and' && end > i && termOf(words[end + 1] ?? '').numberWord))) end++;
    if (end === i) out.push(words[i++]!);
    else {
      // "30 million": a number in digits before a scale word is part of the phrase.
      const scaled = SCALE.test(words[i]!) && NUMBER.test(out.at(-1) ?? '') ? `${out.pop()} ` : '';
      out.push(inDigits(`${scaled}${words.slice(i, end).join(' ')}`));
      i = end;
    }
  }
  return out.join(' ');
}

function inDigits(phrase: string): string {
  let found = digits.get(phrase);
  if (found === undefined) {
    const doc = library().nlp(phrase);
    doc.numbers().toNumber();
    found = doc.text().toLowerCase();
    if (digits.size >= MAX_PHRASES) digits.clear();
    digits.set(phrase, found);
  }
  return found;
}

const forms = new Map<string, string[]>();

/** Every form of a verb, by its infinitive: "sell" → sell, sells, sold, selling (kept: a verb's forms never change). */
export function verbForms(infinitive: string): string[] {
  let found = forms.get(infinitive);
  if (!found) {
    const lib = library();
    found = [infinitive, ...Object.values(lib.conjugate(infinitive, lib.model))].map((f) => f.toLowerCase());
    forms.set(infinitive, found);
  }
  return found;
}
