// The route type narrows the handler's principal by the route's auth (checked by `npm run typecheck`,
// which compiles this file): handlers of `auth: 'user'` routes never assert that a principal exists.
import test from 'ava';
import { route } from '../../src/gateway/route.ts';

const base = { method: 'GET' as const, path: '/x', operationId: 'x', summary: 'x', tags: ['x'] };

test('a user route hands its handler a principal; an optional one may hand it none, and cannot require a role', (t) => {
  const user = route({ ...base, auth: 'user', role: 'admin', handler: ({ principal }) => principal.userId });
  const optional = route({ ...base, auth: 'optional', handler: ({ principal }) => principal?.userId ?? 'anonymous' });
  // @ts-expect-error a route that may run without a principal cannot name a role
  route({ ...base, auth: 'optional', role: 'admin', handler: () => undefined });
  // @ts-expect-error without `auth: 'user'` the principal may be undefined
  route({ ...base, auth: 'none', handler: ({ principal }) => principal.userId });
  t.is(user.auth, 'user');
  t.is(optional.auth, 'optional');
});
