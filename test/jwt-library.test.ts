// One JWT library per job: jsonwebtoken signs and checks the service's own HS256 tokens; jose only
// verifies single sign-on id_tokens against the provider's JWKS (asymmetric, rotating keys), which
// jsonwebtoken cannot fetch or select on its own. The MCP SDK and oidc-provider bring jose anyway.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';

const root = join(import.meta.dirname, '..');
const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join('src', f));
const importers = (lib: string) =>
  files.filter((f) => new RegExp(`(from|import\\()\\s*['"]${lib}['"]`).test(readFileSync(join(root, f), 'utf8'))).map((f) => relative(root, join(root, f)).replaceAll('\\', '/'));

test('jose is used only by single sign-on, for id_tokens', (t) => {
  t.true(importers('jose').every((f) => f.includes('/sso/')), importers('jose').join(', '));
});

test('the service signs its own tokens in one module, with jsonwebtoken', (t) => {
  const users = importers('jsonwebtoken');
  t.is(users.length, 1);
  t.regex(users[0]!, /\/jwt\.ts$/);
});
