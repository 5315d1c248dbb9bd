// Why a question could not be asked or answered, in the words of the person asking, shown in the
// composer where they look (the page behind the docked composer may be out of view).
import type { ApiProblem } from '../api/problem.ts';

/** The message for `problem` when the question typed is `length` characters long. */
export function askProblemText(problem: ApiProblem, length: number): string {
  // The server's message names the limit (one place for the number); the length is the browser's.
  const tooLong = problem.fields['message'];
  if (problem.status === 422 && tooLong) return `${tooLong} Yours has ${length.toLocaleString()}: shorten it, or attach the text as a file and ask about it.`;
  if (problem.status === 422) return Object.values(problem.fields)[0] ?? problem.message;
  return problem.message;
}
