// Printing: results to stdout, progress to stderr, so `--json` output and pipes stay clean. What the
// tool prints is mostly other people's text (titles, cell values, answers, messages): a control
// character in it is shown as an escape (`\x1b`), never sent to the terminal, which would act on it
// (clear the screen, recolour, retitle the window, or, in a table, start a forged row).

export interface Output {
  json: boolean;
  /** Progress goes to a terminal: a line may be redrawn in place (`\r`); in a log it may not. */
  interactive: boolean;
  out(text: string): void;
  progress(text: string): void;
}

/** Control characters but tab and line feed; progress also keeps the carriage return it redraws with. */
const CONTROL_IN_TEXT = /(?![\t\n])\p{Cc}/gu;
const CONTROL_IN_PROGRESS = /(?![\t\n\r])\p{Cc}/gu;
/** Every control character: a table cell stays on its line. */
const CONTROL_IN_CELL = /\p{Cc}/gu;

const escaped = (c: string) => ({ '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
/** `text` with the control characters `pattern` matches shown as escapes. */
export const visible = (text: string, pattern = CONTROL_IN_TEXT) => text.replace(pattern, escaped);

export function consoleOutput(json: boolean): Output {
  return {
    json,
    interactive: process.stderr.isTTY === true,
    out: (text) => process.stdout.write(visible(text.endsWith('\n') ? text : `${text}\n`)),
    progress: (text) => {
      if (!json) process.stderr.write(visible(text, CONTROL_IN_PROGRESS));
    },
  };
}

/** A plain-text table of rows, columns padded, long cells cut. */
export function table(columns: string[], rows: unknown[][], maxWidth = 40): string {
  const cell = (v: unknown) => {
    const s = visible(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v), CONTROL_IN_CELL);
    return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s;
  };
  const cells = rows.map((r) => r.map(cell));
  columns = columns.map((c) => visible(c, CONTROL_IN_CELL));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Rows of objects as a table over the given keys. */
export function objectTable(items: Record<string, unknown>[], keys: string[]): string {
  return table(keys, items.map((item) => keys.map((k) => item[k])));
}

/** A moment (ms since the epoch) as a person reads it, in local time: `2026-03-05 14:07`. */
export function dateTime(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
