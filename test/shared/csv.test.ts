import test from 'ava';
import { csvLine, csvRows, neutraliseFormula, toCsv } from '../../src/shared/csv.ts';

test('each formula start gets a leading apostrophe and other text is left alone', (t) => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) t.is(neutraliseFormula(`${start}x`), `'${start}x`);
  for (const safe of ['', 'x=1', ' =1', "'=1", '1-2']) t.is(neutraliseFormula(safe), safe);
});

test('fields with commas, quotes and line breaks are quoted, lines end in CRLF', (t) => {
  t.is(csvLine(['a,b', 'say "hi"', 'line\nbreak', 'cr\rx', 'plain']), '"a,b","say ""hi""","line\nbreak","cr\rx",plain\r\n');
});

test('values of every kind keep their form: numbers are never neutralised, null is empty', (t) => {
  t.is(csvLine([-5, 10n, true, null, undefined, new Date('2024-02-29T10:00:00Z'), { a: -1 }, ['=x']]), '-5,10,true,,,2024-02-29T10:00:00.000Z,"{""a"":-1}","[""=x""]"\r\n');
});

test('a hostile header and hostile cells come out inert, quoted when they need it', (t) => {
  t.is(toCsv(['=cmd', 'ok'], [['=HYPERLINK("http://evil")', '@SUM(1)']]), `'=cmd,ok\r\n"'=HYPERLINK(""http://evil"")",'@SUM(1)\r\n`);
  t.is(csvRows([]), '');
});
