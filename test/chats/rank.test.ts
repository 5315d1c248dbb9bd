import test from 'ava';
import { excerpt, scoreBodies, tokens } from '../../src/chats/rank.ts';

test('tokens fold case and accents like the FTS5 tokenizer', (t) => {
  t.deepEqual(tokens('Café ÉCLAIR, naïve-2026!'), ['cafe', 'eclair', 'naive', '2026']);
});

test('bodies with more occurrences in less text score higher; the last word matches as a prefix', (t) => {
  const [once, twice, long] = scoreBodies(['revenue rose', 'revenue and revenue', `revenue ${'filler '.repeat(50)}`], ['revenue']);
  t.true(twice! > once!);
  t.true(once! > long!);
  const [prefix, none] = scoreBodies(['categories of products', 'nothing here'], ['categ'], { prefix: true });
  t.is(scoreBodies(['categories'], ['categ'])[0], 0);
  t.true(prefix! > 0);
  t.is(none, 0);
});

test('excerpts mark the matched words, escape HTML and cut long bodies around the first match', (t) => {
  t.is(excerpt('Revenue <b>by</b> country', ['revenue']), '<mark>Revenue</mark> &lt;b&gt;by&lt;/b&gt; country');
  const body = `${'a '.repeat(30)}target word ${'z '.repeat(30)}`;
  const cut = excerpt(body, ['target'], { size: 8 });
  t.true(cut.startsWith('…'));
  t.true(cut.endsWith('…'));
  t.true(cut.includes('<mark>target</mark>'));
  t.is(excerpt('', ['x']), '');
});
