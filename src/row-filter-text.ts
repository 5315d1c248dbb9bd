// A row filter is written into the statement as text, each filter that applies in parentheses of
// its own, `(<filter>) AND (<filter>)` (data/rls/render-filter.ts). A filter that closes its
// parenthesis early, `x) OR (1=1`, turns that into `(a) AND (x) OR (1=1)`: every row, whatever the
// other filters say. An environment's draft filters come before production's (rls/production-filters.ts),
// so a modeler could loosen production's filter in their environment that way. A quote or a comment
// left open swallows the text after it the same way. So a filter must be one closed piece of text:
// quotes closed, parentheses balanced and never closed before they open, no comment, no `;`, no `$`
// (PostgreSQL's dollar quotes), no backslash inside quotes (MySQL reads `\'` as a quote inside the
// text, PostgreSQL as its end), and `{{user.*}}` outside quotes (its value is quoted for you). The
// guard then checks the whole statement as it checks every other.

/** Where a quoted text or name starting at `start` ends (the index after it), or why it cannot. */
function afterQuote(text: string, start: number): number | string {
  const quote = text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') return 'a backslash inside quotes is read differently by each warehouse; write the character itself';
    if (text.startsWith('{{', i)) return 'write {{user.…}} without quotes around it: its value is quoted for you';
    if (text[i] !== quote) continue;
    if (text[i + 1] !== quote) return i + 1;
    i++;
  }
  return quote === "'" ? 'a quoted text is not closed' : 'a quoted name is not closed';
}

/** What in a row filter's text could reach past its own parentheses, or undefined when nothing can. */
export function rowFilterTextProblem(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const end = afterQuote(text, i);
      if (typeof end === 'string') return end;
      i = end;
      continue;
    }
    if (text.startsWith('{{', i)) {
      const end = text.indexOf('}}', i);
      if (end < 0) return 'a {{ is not closed';
      i = end + 2;
      continue;
    }
    if (text.startsWith('--', i) || text.startsWith('/*', i) || c === '#') return 'comments are not allowed in a row filter';
    if (c === ';') return 'a row filter is one condition: ";" is not allowed';
    if (c === '$') return '"$" is not allowed in a row filter';
    if (c === '(') depth++;
    if (c === ')' && --depth < 0) return 'a parenthesis is closed that was not opened';
    i++;
  }
  return depth === 0 ? undefined : 'a parenthesis is not closed';
}
