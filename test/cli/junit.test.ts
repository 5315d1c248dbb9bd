// The JUnit report stays well-formed XML whatever an answer contains.
import test from 'ava';
import { junitReport } from '../../src/cli/junit.ts';
import type { RunView } from '../../src/cli/run-view.ts';

const run = (answer: string): RunView => ({
  id: 'evr_1',
  evaluation_id: 'core',
  evaluation_name: 'Core & "friends"',
  status: 'completed',
  finished: true,
  verdict: 'fail',
  created_at: '2026-01-15T12:00:00.000Z',
  target: { kind: 'production', environment_id: null },
  target_commit: 'c'.repeat(40),
  summary: { total: 3, pass: 1, fail: 1, error: 1, pending: 0 },
  questions: [
    { id: 'a', question: 'How many <orders>?', result: 'pass', expected: 5, observed: 5, relative_diff: 0, error: null, answer: '5' },
    { id: 'b', question: "Revenue 'net'?", result: 'fail', expected: 10, observed: 12, relative_diff: 20, error: null, answer },
    { id: 'c', question: 'When?', result: 'error', expected: '2024-01-01', observed: null, relative_diff: null, error: 'refused', answer: "I can't" },
  ],
});

test('answers with markup, quotes and control characters are escaped, and each question is a test case', (t) => {
  const xml = junitReport(run('</failure><x a="1">&\u0000\u0007\uFFFE done'));
  t.regex(xml, /<testsuites name="sextant evaluations" tests="3" failures="1" errors="1">/);
  t.regex(xml, /<testsuite name="core \(Core &amp; &quot;friends&quot;\)" id="evr_1"/);
  t.regex(xml, /name="a: How many &lt;orders&gt;\?"><\/testcase>/);
  t.regex(xml, /<failure message="expected 10, observed 12 \(20% off\)" type="wrong_answer">&lt;\/failure&gt;&lt;x a=&quot;1&quot;&gt;&amp;\uFFFD\uFFFD\uFFFD done<\/failure>/);
  t.regex(xml, /<error message="refused: expected 2024-01-01, observed nothing" type="refused">I can&apos;t<\/error>/);
  t.false([...xml].some((c) => c.charCodeAt(0) < 9), 'no control characters');
  t.is(xml.match(/<testcase /g)?.length, 3);
});
