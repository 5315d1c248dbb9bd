// A server's refusal in words for a person at a terminal: a 422's field issues become sentences
// ("role must be one of user, modeler, admin") instead of schema text, and a 404 points to the list
// command for the kind of thing that was not found.

interface Issue {
  loc?: (string | number)[];
  msg?: string;
  type?: string;
}

/** One 422 issue as a sentence naming the field as the user typed it (without `body.`/`query.`). */
export function issueInWords(issue: Issue): string {
  const loc = (issue.loc ?? []).filter((part, i) => !(i === 0 && ['body', 'query', 'path'].includes(String(part))));
  const name = loc.join('.');
  const msg = issue.msg ?? 'is not valid';
  if (!name) return msg;
  const type = issue.type ?? '';
  const bound = /[<>]=?\s*(-?[\d.]+)/.exec(msg)?.[1];
  if (type === 'missing') return `${name} is required`;
  if (type === 'enum') {
    const options = [...msg.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    if (options.length > 0) return `${name} must be one of ${options.join(', ')}`;
  }
  if (bound !== undefined) {
    const least = type === 'string_too_short' || type === 'too_short' || type === 'greater_than_equal' || msg.startsWith('Too small');
    const unit = type.startsWith('string_') ? ' characters' : type === 'too_short' || type === 'too_long' ? ' items' : '';
    return `${name} must be ${least ? 'at least' : 'at most'} ${bound}${unit}`;
  }
  if (type.endsWith('_type')) return `${name} must be ${article(type.slice(0, -'_type'.length))}`;
  return `${name}: ${msg.replace(/^Invalid input:\s*/, '')}`;
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

const LIST_COMMANDS: [RegExp, string][] = [
  [/^\/api\/(evaluations|evaluation_runs|knowledge\/evaluations)(\/|$)/, '`sextant eval list`'],
  [/^\/api\/environments(\/|$)/, '`sextant env list`'],
  [/^\/api\/(c2|agentic|chat_history|search_chats|download_)/, '`sextant chats list`'],
  [/^\/api\/admin(\/|$)/, '`sextant admin members`'],
];

/** What to run to find the right id after a 404 on `path`. */
export function notFoundHint(path: string): string {
  const list = LIST_COMMANDS.find(([re]) => re.test(path))?.[1];
  return list ? ` Check the id (${list}).` : ' Check the name or id.';
}
