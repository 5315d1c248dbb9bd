// Splits a JSON text fed in blocks of bytes into values small enough to parse whole: the containers
// down to a depth are opened (their keys, commas and colons checked here), and every value below them
// is cut out of the bytes by a scanner that only follows strings, escapes and brackets, then parsed
// with JSON.parse. V8's JSON.parse is several times faster than a parser in JavaScript token by token,
// and a value held is only as large as one member of a section (a dbt node), never the whole text.
// A byte is never split from what it belongs to: UTF-8 continuation bytes are all >= 0x80, so none of
// them is a quote, a backslash or a bracket, and a cut value is decoded only once it is whole.

/** What the splitter finds, in document order. `depth` is 0 for the root value, 1 for its members. */
export interface JsonSplitHandler {
  /** A container above the split depth opens; `key` is its name in its parent object. */
  open(array: boolean, key: string | undefined, depth: number): void;
  /** A value parsed whole: every value at the split depth, and a scalar above it. */
  value(value: unknown, key: string | undefined, depth: number): void;
  close(depth: number): void;
}

/** What comes next in an opened container (or, for the root, before and after its value). */
type Expect = 'value' | 'value-or-end' | 'key' | 'key-or-end' | 'colon' | 'comma-or-end' | 'done';

interface Frame {
  array: boolean;
  expect: Expect;
}

/** What is being cut out: nothing (between tokens), a key, or a value that is a string, a scalar or a container. */
type Cutting = 'none' | 'key' | 'string' | 'scalar' | 'container';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d;
const BOM = [0xef, 0xbb, 0xbf];

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const endsScalar = (c: number) => isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY;

/**
 * A JSON text split at `depth`: feed it with `write`, then `end`. Throws a SyntaxError on text that
 * is not one JSON value, wherever it is (in a value parsed whole, JSON.parse finds it).
 */
export class JsonSplitter {
  /** The root's pseudo-frame, then one per opened container. */
  private readonly frames: Frame[] = [{ array: true, expect: 'value' }];
  private key: string | undefined;
  private cutting: Cutting = 'none';
  /** Brackets open in a container being cut, and where its strings are. */
  private nest = 0;
  private inString = false;
  private escaped = false;
  /** The bytes cut so far from earlier blocks, and where the cut starts in the current block. */
  private pieces: Buffer[] = [];
  private start = 0;
  /** Bytes fed before the current block, for the byte-order mark and error positions. */
  private offset = 0;
  /** Bytes of a byte-order mark read at the start. */
  private bom = 0;

  constructor(private readonly depth: number, private readonly handler: JsonSplitHandler) {}

  write(block: Buffer): void {
    let i = 0;
    const n = block.length;
    this.start = 0;
    while (i < n) {
      if (this.cutting === 'none') i = this.between(block, i);
      else if (this.cutting === 'container') i = this.cutContainer(block, i);
      else if (this.cutting === 'scalar') i = this.cutScalar(block, i);
      else i = this.cutString(block, i);
    }
    if (this.cutting !== 'none') this.pieces.push(block.subarray(this.start));
    this.offset += n;
  }

  /** Checks that the text was one whole value: a scalar at the end is complete only here. */
  end(): void {
    if (this.cutting === 'scalar') this.finishValue(Buffer.alloc(0), 0);
    if (this.cutting !== 'none' || this.frames.length > 1 || this.frames[0]!.expect !== 'done') throw new SyntaxError(`JSON cut short after ${this.offset} bytes`);
  }

  private fail(at: number): never {
    throw new SyntaxError(`Unexpected byte in JSON at position ${this.offset + at}`);
  }

  /** Between tokens of the opened containers: one byte's step, or the start of a key or a value. */
  private between(block: Buffer, i: number): number {
    const c = block[i]!;
    const top = this.frames[this.frames.length - 1]!;
    // A byte-order mark is read past at the very start, as a decoder does; a part of one is refused.
    if (this.bom < BOM.length && this.offset + i === this.bom && c === BOM[this.bom]) {
      this.bom++;
      return i + 1;
    }
    if (this.bom > 0 && this.bom < BOM.length) this.fail(i);
    if (isSpace(c)) return i + 1;
    switch (top.expect) {
      case 'colon':
        if (c !== COLON) this.fail(i);
        top.expect = 'value';
        return i + 1;
      case 'comma-or-end':
        if (c === COMMA) top.expect = top.array ? 'value' : 'key';
        else if (c === (top.array ? CLOSE_ARRAY : CLOSE_OBJECT)) this.close();
        else this.fail(i);
        return i + 1;
      case 'key-or-end':
      case 'key':
        if (c === CLOSE_OBJECT && top.expect === 'key-or-end') this.close();
        else if (c === QUOTE) this.startCut('key', i);
        else this.fail(i);
        return i + 1;
      case 'value-or-end':
      case 'value':
        if (c === CLOSE_ARRAY && top.expect === 'value-or-end') {
          this.close();
          return i + 1;
        }
        return this.startValue(block, i, top);
      default:
        return this.fail(i);
    }
  }

  private startValue(block: Buffer, i: number, top: Frame): number {
    const c = block[i]!;
    const depth = this.frames.length - 1;
    const key = top.array ? undefined : this.key;
    if ((c === OPEN_OBJECT || c === OPEN_ARRAY) && depth < this.depth) {
      top.expect = this.frames.length === 1 ? 'done' : 'comma-or-end';
      const array = c === OPEN_ARRAY;
      this.frames.push({ array, expect: array ? 'value-or-end' : 'key-or-end' });
      this.handler.open(array, key, depth);
      return i + 1;
    }
    if (c === QUOTE) this.startCut('string', i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.startCut('container', i);
      this.nest = 1;
    } else {
      // A number, true, false or null, or anything else, which JSON.parse will refuse.
      this.startCut('scalar', i);
      return i;
    }
    return i + 1;
  }

  private startCut(what: Cutting, i: number): void {
    this.cutting = what;
    this.start = i;
    this.pieces = [];
    this.inString = false;
    this.escaped = false;
  }

  /** Inside a container being cut: the hot loop, over most of a manifest's bytes. */
  private cutContainer(block: Buffer, i: number): number {
    const n = block.length;
    let { nest, inString, escaped } = this;
    for (; i < n; i++) {
      const c = block[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) nest++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --nest === 0) {
        this.finishValue(block, i + 1);
        return i + 1;
      }
    }
    this.nest = nest;
    this.inString = inString;
    this.escaped = escaped;
    return n;
  }

  /** Inside a string being cut (a key or a value): up to its closing quote. */
  private cutString(block: Buffer, i: number): number {
    const n = block.length;
    let escaped = this.escaped;
    for (; i < n; i++) {
      const c = block[i]!;
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        if (this.cutting === 'key') this.finishKey(block, i + 1);
        else this.finishValue(block, i + 1);
        return i + 1;
      }
    }
    this.escaped = escaped;
    return n;
  }

  private cutScalar(block: Buffer, i: number): number {
    const n = block.length;
    while (i < n && !endsScalar(block[i]!)) i++;
    if (i < n) this.finishValue(block, i);
    return i;
  }

  /** The text cut, from its start to `end` of the current block, decoded once whole. */
  private cut(block: Buffer, end: number): string {
    if (this.pieces.length === 0) return block.toString('utf8', this.start, end);
    return Buffer.concat([...this.pieces, block.subarray(0, end)]).toString('utf8');
  }

  private finishKey(block: Buffer, end: number): void {
    this.key = JSON.parse(this.cut(block, end)) as string;
    this.cutting = 'none';
    this.pieces = [];
    this.frames[this.frames.length - 1]!.expect = 'colon';
  }

  private finishValue(block: Buffer, end: number): void {
    const text = this.cut(block, end);
    const depth = this.frames.length - 1;
    const top = this.frames[depth]!;
    const key = top.array ? undefined : this.key;
    this.cutting = 'none';
    this.pieces = [];
    top.expect = depth === 0 ? 'done' : 'comma-or-end';
    this.handler.value(JSON.parse(text), key, depth);
  }

  private close(): void {
    this.frames.pop();
    this.handler.close(this.frames.length - 1);
  }
}
