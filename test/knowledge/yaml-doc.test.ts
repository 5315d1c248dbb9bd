import test from 'ava';
import { parseYaml, updateYaml } from '../../src/knowledge/index.ts';

// One item per block style, each with comments, as people write them by hand.
const items = {
  literal: '# a note\ntitle: Fiscal year # shown in lists\nbody: |\n  Starts in April.\n  Ends in March.\ntags: [dates]\n',
  strip: 'title: Fiscal year\n# the text\nbody: |-\n  Starts in April.\n  Ends in March.\ntags: [dates]   # spaced\n',
  keep: 'title: Fiscal year\nbody: |+\n  Starts in April.\n  Ends in March.\n\n\ntags: [dates]\n',
  folded: 'title: Fiscal year # folded below\nbody: >\n  Starts in April\n  and ends in March.\n\n  A second paragraph.\ntags: [dates]\n',
};

const data = (text: string) => parseYaml(text).value as Record<string, unknown>;

for (const [style, text] of Object.entries(items)) {
  test(`saving an unchanged ${style} item writes the same bytes`, (t) => {
    t.is(updateYaml(text, data(text)), text);
  });

  test(`editing a ${style} block text keeps its indicator and the other lines`, (t) => {
    const before = data(text);
    const body = (before.body as string).replace('Starts', 'Begins');
    for (const sent of [body, body.replace(/\n+$/, ''), `${body.replace(/\n+$/, '')}\n`]) {
      const out = updateYaml(text, { ...before, body: sent });
      const header = /^body: .*$/m.exec(text)![0];
      t.true(out.includes(`\n${header}\n`), `${style}: ${JSON.stringify(sent)}`);
      t.deepEqual(data(out), { ...before, body: (before.body as string).replace('Starts', 'Begins') });
      // A folded text is written again as the serializer folds it; every other text keeps its lines.
      if (style === 'folded') t.is(out.split('\n').filter((l) => !l.startsWith('  ')).join('\n'), text.split('\n').filter((l) => !l.startsWith('  ')).join('\n'));
      else t.is(out, text.replace('Starts', 'Begins'), `${style}: ${JSON.stringify(sent)}`);
    }
  });
}

test('a text that only lost its final newline is no change at all', (t) => {
  const text = items.folded;
  t.is(updateYaml(text, { ...data(text), body: (data(text).body as string).trimEnd() }), text);
});

for (const [style, text] of Object.entries(items)) {
  test(`changing another field of a ${style} item changes only that field's line`, (t) => {
    const out = updateYaml(text, { ...data(text), title: 'Fiscal calendar' });
    t.is(out, text.replace('Fiscal year', 'Fiscal calendar'));
  });
}

test('a folded text in a list keeps its lines and header comment when a sibling field changes', (t) => {
  const text = 'columns:\n  - name: id\n    description: >- # wrapped by hand\n      The key of\n      the row.\n    type: INT\n  - name: b\n    type: INT\n';
  const value = data(text);
  (value.columns as Record<string, unknown>[])[0]!.type = 'BIGINT';
  t.is(updateYaml(text, value), text.replace('type: INT', 'type: BIGINT'));
});
