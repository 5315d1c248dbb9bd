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

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }), { FORBID_TAGS: ['style', 'form', 'input', 'img'] }), [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
