// A JUnit XML report of an evaluation run, the format CI systems (GitHub Actions test reporters,
// GitLab, Jenkins) read: one test suite per run, one test case per question.
import type { RunView } from './run-view.ts';

// XML 1.0 allows tab, newline and carriage return below 0x20, and nothing in the surrogate or
// non-character ranges: such characters in an answer would make the whole report unreadable.
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text escaped for an XML attribute or element. */
export function xmlEscape(text: string): string {
  return text.replace(INVALID_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The report of a finished run. */
export function junitReport(run: RunView): string {
  const attr = (name: string, value: string | number) => ` ${name}="${xmlEscape(String(value))}"`;
  const cases = (run.questions ?? []).map((q) => {
    const head = `    <testcase${attr('classname', run.evaluation_id)}${attr('name', `${q.id}: ${q.question}`)}>`;
    const detail = `expected ${String(q.expected)}, observed ${q.observed === null ? 'nothing' : String(q.observed)}${q.relative_diff === null ? '' : ` (${q.relative_diff}% off)`}`;
    const body =
      q.result === 'fail'
        ? `      <failure${attr('message', detail)}${attr('type', 'wrong_answer')}>${xmlEscape(q.answer ?? '')}</failure>\n`
        : q.result === 'error' || q.result === 'pending'
          ? `      <error${attr('message', `${q.error ?? 'not finished'}: ${detail}`)}${attr('type', q.error ?? 'pending')}>${xmlEscape(q.answer ?? '')}</error>\n`
          : '';
    return body ? `${head}\n${body}    </testcase>` : `${head}</testcase>`;
  });
  const { total, fail, error, pending } = run.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr('name', 'sextant evaluations')}${attr('tests', total)}${attr('failures', fail)}${attr('errors', error + pending)}>`,
    `  <testsuite${attr('name', `${run.evaluation_id} (${run.evaluation_name})`)}${attr('id', run.id)}${attr('timestamp', run.created_at)}${attr('tests', total)}${attr('failures', fail)}${attr('errors', error + pending)}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
