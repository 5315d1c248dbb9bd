// Reads the top-level sections of a JSON file that the caller names, as a stream of tokens
// (stream-json): the text is read in blocks and never held whole, sections not named are skipped
// token by token, and a section read entry by entry keeps each entry only as its rule cuts it down.
// A manifest of tens of MB thus costs the memory of what the import keeps, not of its text and tree.
import { createReadStream } from 'node:fs';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';

/** How a section is kept: whole, or entry by entry (an object's values), each cut down by the function. */
export type SectionRule = 'whole' | ((entry: unknown) => unknown);

const OPENS = new Set<Token['name']>(['startObject', 'startArray']);
const CLOSES = new Set<Token['name']>(['endObject', 'endArray']);

/**
 * A copy of a kept value whose strings are its own. The parser cuts each string out of the text it
 * holds, and V8 keeps a cut of 13 characters or more as a slice that holds the whole block it was cut
 * from: the ids and names a kept node holds were keeping nearly all of the manifest's text alive.
 */
const detached = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

/** Like JSON.parse, a `__proto__` key is an own property, never the prototype. */
function setOwn(to: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The token handler: where it is in the document, and the value it is assembling, if any. */
class SectionPicker {
  readonly sections: Record<string, unknown> = {};
  /** Before the root value, in the root object, in a section read entry by entry, after the root. */
  at: 'start' | 'root' | 'entries' | 'end' | 'not_object' = 'start';
  private key = '';
  private entryKey = '';
  private entries: Record<string, unknown> = {};
  /** Nesting depth of a value being skipped; 0 when none is. */
  private skipping = 0;
  private value: { asm: Assembler; done: (v: unknown) => void } | undefined;

  constructor(private readonly rules: Record<string, SectionRule>) {}

  push(token: Token): void {
    if (this.value) return this.assemble(token);
    if (this.skipping > 0) {
      this.skipping += OPENS.has(token.name) ? 1 : CLOSES.has(token.name) ? -1 : 0;
      return;
    }
    if (this.at === 'start') this.at = token.name === 'startObject' ? 'root' : 'not_object';
    else if (this.at === 'root') this.inRoot(token);
    else if (this.at === 'entries') this.inEntries(token);
    // After the root (or a root that is no object) tokens are only read for the parser to check the JSON.
  }

  private inRoot(token: Token): void {
    if (token.name === 'keyValue') this.key = token.value;
    else if (token.name === 'endObject') this.at = 'end';
    else if (!Object.hasOwn(this.rules, this.key)) this.skipping = OPENS.has(token.name) ? 1 : 0;
    else if (this.rules[this.key] !== 'whole' && token.name === 'startObject') {
      this.entries = {};
      setOwn(this.sections, this.key, this.entries);
      this.at = 'entries';
    } else {
      const key = this.key;
      this.start(token, (v) => setOwn(this.sections, key, detached(v)));
    }
  }

  private inEntries(token: Token): void {
    if (token.name === 'keyValue') this.entryKey = token.value;
    else if (token.name === 'endObject') this.at = 'root';
    else {
      const [rule, entries, id] = [this.rules[this.key] as (entry: unknown) => unknown, this.entries, this.entryKey];
      this.start(token, (v) => setOwn(entries, id, detached(rule(v))));
    }
  }

  private start(token: Token, done: (v: unknown) => void): void {
    this.value = { asm: new Assembler(), done };
    this.assemble(token);
  }

  private assemble(token: Token): void {
    const { asm, done } = this.value!;
    asm.consume(token);
    if (!asm.done) return;
    this.value = undefined;
    done(asm.current);
  }
}

/**
 * The sections of the JSON file at `path` that `rules` names, undefined when its value is no object.
 * Rejects when the file is not JSON: the parser reads it to the end, so a broken or cut tail is found too.
 */
export async function readJsonSections(path: string, rules: Record<string, SectionRule>): Promise<Record<string, unknown> | undefined> {
  const picker = new SectionPicker(rules);
  // Packed values only (no chunk tokens): a third of the tokens, and all the assembler reads. The
  // parser's function is called on each block itself: through its stream adapter every token was
  // also an event and a step of stream-chain (~20 % of the reading's CPU time, and their garbage).
  const parse = jsonParser({ streamValues: false });
  const feed = (out: unknown) => {
    if (isMany(out)) for (const token of getManyValues(out) as Token[]) picker.push(token);
    else if (out !== none) picker.push(out as Token);
  };
  let first = true;
  // Decoded as UTF-8 across block edges by the stream; a byte-order mark is read past, as JSON.parse does not.
  for await (const block of createReadStream(path, { encoding: 'utf8', highWaterMark: 16 * 1024 })) {
    const text = block as string;
    feed(parse(first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
    first = false;
  }
  // `none` flushes the parser (stream-chain's protocol): a value cut short is found here.
  feed(parse(none as unknown as string));
  if (picker.at === 'not_object') return undefined;
  return picker.sections;
}

/** The same cut on a value already parsed: the sections `rules` names, entry by entry where it says so. */
export function pickSections(value: Record<string, unknown>, rules: Record<string, SectionRule>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [section, rule] of Object.entries(rules)) {
    const v = Object.hasOwn(value, section) ? value[section] : undefined;
    if (v === undefined) continue;
    const entries = rule !== 'whole' && typeof v === 'object' && v !== null && !Array.isArray(v);
    setOwn(out, section, entries ? Object.fromEntries(Object.entries(v).map(([id, entry]) => [id, rule(entry)])) : v);
  }
  return out;
}
