import test from 'ava';
import { issueInWords, notFoundHint } from '../../src/cli/problem-words.ts';

test('422 issues read as sentences naming the field as typed', (t) => {
  t.is(issueInWords({ loc: ['body', 'role'], msg: 'Invalid option: expected one of "user"|"modeler"|"admin"', type: 'enum' }), 'role must be one of user, modeler, admin');
  t.is(issueInWords({ loc: ['query', 'q'], msg: 'Too small: expected string to have >=3 characters', type: 'string_too_short' }), 'q must be at least 3 characters');
  t.is(issueInWords({ loc: ['query', 'limit'], msg: 'Too big: expected number to be <=500', type: 'less_than_equal' }), 'limit must be at most 500');
  t.is(issueInWords({ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }), 'name is required');
  t.is(issueInWords({ loc: ['body', 'limit'], msg: 'Invalid input: expected integer, received string', type: 'integer_type' }), 'limit must be an integer');
  t.is(issueInWords({ loc: [], msg: 'Unsupported file type: a.exe', type: 'value_error' }), 'Unsupported file type: a.exe');
});

test('a 404 points to the list command of what was not found', (t) => {
  t.regex(notFoundHint('/api/evaluation_runs/x'), /sextant eval list/);
  t.regex(notFoundHint('/api/evaluations/x/runs'), /sextant eval list/);
  t.regex(notFoundHint('/api/knowledge/evaluations/x'), /sextant eval list/);
  t.regex(notFoundHint('/api/environments/x/diff'), /sextant env list/);
  t.regex(notFoundHint('/api/c2/x'), /sextant chats list/);
  t.notRegex(notFoundHint('/api/knowledge/notes/x'), /env list/);
});
