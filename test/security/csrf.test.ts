import test from 'ava';
import { checkCsrfToken, csrfToken } from '../../src/security/index.ts';

const KEY = 'k'.repeat(40);

test('a CSRF token checks only for the same key, purpose and binding', (t) => {
  const token = csrfToken(KEY, 'form', ['session-1', 'code-1']);
  t.true(checkCsrfToken(KEY, 'form', ['session-1', 'code-1'], token));
  t.false(checkCsrfToken(KEY, 'other-form', ['session-1', 'code-1'], token));
  t.false(checkCsrfToken(KEY, 'form', ['session-2', 'code-1'], token));
  t.false(checkCsrfToken(KEY, 'form', ['session-1', 'code-2'], token));
  t.false(checkCsrfToken('x'.repeat(40), 'form', ['session-1', 'code-1'], token));
});

test('binding parts cannot be shifted into one another', (t) => {
  const token = csrfToken(KEY, 'form', ['ab', 'c']);
  t.false(checkCsrfToken(KEY, 'form', ['a', 'bc'], token));
});

test('a missing or empty CSRF token never checks', (t) => {
  t.false(checkCsrfToken(KEY, 'form', ['s'], undefined));
  t.false(checkCsrfToken(KEY, 'form', ['s'], ''));
});
