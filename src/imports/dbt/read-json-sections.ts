// Reads the top-level sections of a JSON file that the caller names: the text is read in blocks and
// never held whole, each member of a section is cut out of the bytes and parsed on its own
// (split-json.ts), a section not named is parsed member by member and dropped (so a file that is not
// JSON is refused wherever it breaks), and a section read entry by entry keeps each entry only as its
// rule cuts it down. A manifest of tens of MB thus costs the memory of what the import keeps, not of
// its text and tree.
import { createReadStream } from 'node:fs';
import { JsonSplitter, type JsonSplitHandler } from './split-json.ts';

/** How a section is kept: whole, or entry by entry (an object's values), each cut down by the function. */
export type SectionRule = 'whole' | ((entry: unknown) => unknown);

/** Like JSON.parse, a `__proto__` key is an own property, never the prototype (defining one is slow: only that key is). */
function setOwn(to: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') to[key] = value;
  else Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Builds the sections named from what the splitter finds: depth 0 is the root, 1 a section, 2 a
 * section's member. JSON.parse makes strings of their own (never slices of the text it reads), so
 * what is kept holds nothing of the blocks read.
 */
class SectionPicker implements JsonSplitHandler {
  readonly sections: Record<string, unknown> = {};
  rootIsObject = false;
  /** The named section being read: where its members go, and the rule that cuts each down. */
  private section: { into: Record<string, unknown> | unknown[]; rule: SectionRule } | undefined;

  constructor(private readonly rules: Record<string, SectionRule>) {}

  open(array: boolean, key: string | undefined, depth: number): void {
    if (depth === 0) this.rootIsObject = !array;
    if (depth !== 1 || !this.rootIsObject || !Object.hasOwn(this.rules, key!)) return;
    const into = array ? [] : {};
    setOwn(this.sections, key!, into);
    // A section read entry by entry that is no object is kept as it is, for the caller to refuse.
    this.section = { into, rule: array ? 'whole' : this.rules[key!]! };
  }

  value(value: unknown, key: string | undefined, depth: number): void {
    if (depth === 1 && this.rootIsObject && Object.hasOwn(this.rules, key!)) setOwn(this.sections, key!, value);
    else if (depth === 2 && this.section) {
      const { into, rule } = this.section;
      const kept = rule === 'whole' ? value : rule(value);
      if (Array.isArray(into)) into.push(kept);
      else setOwn(into, key!, kept);
    }
  }

  close(depth: number): void {
    if (depth === 1) this.section = undefined;
  }
}

/**
 * The sections of the JSON file at `path` that `rules` names, undefined when its value is no object.
 * Rejects when the file is not JSON: it is read to the end, so a broken or cut tail is found too.
 */
export async function readJsonSections(path: string, rules: Record<string, SectionRule>): Promise<Record<string, unknown> | undefined> {
  const picker = new SectionPicker(rules);
  const splitter = new JsonSplitter(2, picker);
  for await (const block of createReadStream(path, { highWaterMark: 64 * 1024 })) splitter.write(block as Buffer);
  splitter.end();
  return picker.rootIsObject ? picker.sections : undefined;
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
