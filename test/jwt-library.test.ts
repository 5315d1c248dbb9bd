// One JWT library: jsonwebtoken signs and checks the service's own HS256 tokens and verifies single
// sign-on id_tokens against the provider's JWKS (node:crypto reads the JWKs). jose stays only inside
// the libraries that bring it (oidc-provider, the MCP SDK).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';

const root = join(import.meta.dirname, '..');
const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join('src', f));
const importers = (lib: string) =>
  files.filter((f) => new RegExp(`(from|import\\()\\s*['"]${lib}['"]`).test(readFileSync(join(root, f), 'utf8'))).map((f) => relative(root, join(root, f)).replaceAll('\\', '/'));

test('no source file imports jose', (t) => {
  t.deepEqual(importers('jose'), []);
});

test("jsonwebtoken is used in two modules only: the service's own tokens and the id_token check", (t) => {
  t.deepEqual(importers('jsonwebtoken').sort(), ['src/auth/credentials/jwt.ts', 'src/auth/sso/id-token.ts']);
});
