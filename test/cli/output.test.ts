// What the CLI prints is other people's text (titles, cell values, answers): a control character in it
// reaches the terminal as an escape, never as the control itself (which would clear the screen,
// recolour it, or in a table start a forged row).
import test from 'ava';
import { consoleOutput, table, visible } from '../../src/cli/output.ts';

const ESC = '\u001b';

test('table cells and column names show control characters as escapes and stay on their line', (t) => {
  const text = table([`n${ESC}[31m`], [[`${ESC}[2J${ESC}[31mRED`], ['sq_fake\nsq_spoof   Payroll (official)'], ['tab\there\u0007\u009b']]);
  t.false(/\p{Cc}/u.test(text.replaceAll('\n', '')), text);
  t.is(text.split('\n').length, 5, 'a header, its rule and three rows');
  t.true(text.includes('\\x1b[2J\\x1b[31mRED'));
  t.true(text.includes('sq_fake\\nsq_spoof'));
  t.true(text.includes('tab\\there\\x07\\x9b'));
  t.true(text.startsWith('n\\x1b[31m'));
});

test('printed text keeps its line breaks and tabs; progress keeps the carriage return it redraws with', (t) => {
  t.is(visible(`a\tb\nc${ESC}]0;title\u0007d\r`), 'a\tb\nc\\x1b]0;title\\x07d\\r');
  const written: string[] = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((s: string) => (written.push(`out:${s}`), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => (written.push(`err:${s}`), true)) as typeof process.stderr.write;
  try {
    const o = consoleOutput(false);
    o.out(`Title ${ESC}[2J\nnext line`);
    o.progress(`\rstep ${ESC}[1A done`);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  t.deepEqual(written, ['out:Title \\x1b[2J\nnext line\n', 'err:\rstep \\x1b[1A done']);
});
