// A refused merge in the merger's words (web/src/knowledge/merge-problem.ts), without a browser.
import test from 'ava';
import { ApiProblem } from '../../web/src/api/problem.ts';
import { mergeProblemText } from '../../web/src/knowledge/merge-problem.ts';

const refused = (code: string) => new ApiProblem(409, `server words for ${code}, GET /api/environments/{id}/evaluation_diff`, code);

test('merging while evaluations run says they are still running and to merge once they finish, with no API path', (t) => {
  const text = mergeProblemText(refused('EVALUATIONS_PENDING'), false);
  t.regex(text, /still running/);
  t.regex(text, /merge again/);
  t.false(text.includes('/api/'));
});

test('regressions tell an admin how to merge anyway and others whom to ask; other refusals keep the server message', (t) => {
  t.regex(mergeProblemText(refused('EVALUATION_REGRESSION'), true), /Merge despite the regressions/);
  t.regex(mergeProblemText(refused('EVALUATION_REGRESSION'), false), /ask an admin/);
  t.is(mergeProblemText(new ApiProblem(403, 'You may not merge.', 'FORBIDDEN'), false), 'You may not merge.');
});
