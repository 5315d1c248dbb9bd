// The server's 422 message for a field or for anything inside it (`attributes.9bad`,
// `allowed_email_domains.1`), so a list or record edited as one text field shows its part's message.
import type { ApiProblem } from '../api/problem.ts';

export function nestedFieldError(problem: ApiProblem | undefined, name: string): string | undefined {
  const key = Object.keys(problem?.fields ?? {}).find((k) => k === name || k.startsWith(`${name}.`));
  return key ? `${key === name ? '' : `${key.slice(name.length + 1)}: `}${problem!.fields[key]}` : undefined;
}
