// The answer's text as Markdown, sanitized: no script, no event handler, links only to http(s) and
// mail, opened without access to this page.
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? '';
    if (!/^(https?:|mailto:|\/|#)/i.test(href)) node.removeAttribute('href');
    node.setAttribute('rel', 'noopener noreferrer');
    node.setAttribute('target', '_blank');
  }
});

const toHtml = (text: string) => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }), { FORBID_TAGS: ['style', 'form', 'input', 'img'] });

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => toHtml(text), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** What an answer's text is made of: headings, emphasis, code, lists, a table, a quote, a link. */
const SAMPLE = '## Revenue\n\nThe **total** was *1,234* in `orders`.\n\n- one\n- two\n\n1. first\n\n| a | b |\n|---|--:|\n| x | 1 |\n\n> note\n\nSee [the docs](https://example.com).';

/**
 * Renders a sample once, ahead of the first answer: in a freshly loaded page the first text otherwise
 * waits for marked's and DOMPurify's functions and regular expressions to compile on first use, which
 * a CPU profile in Chromium put at ~10 ms (more on a busy machine) between the text's arrival and its display.
 */
export function prepareMarkdown(): void {
  toHtml(SAMPLE);
}
