// The house rules of ../shared/design.md that can be read off the imports.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
const sources = files(join(root, 'src')).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));
const importsOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

test('only the gateway imports Koa', (t) => {
  const offenders = sources.filter((f) => !f.path.startsWith('src/gateway/') && importsOf(f.text).some((i) => /^(koa|@koa\/|koa-)/.test(i)));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('only src/config.ts reads process.env (the CLI reads its own)', (t) => {
  const offenders = sources.filter((f) => f.path !== 'src/config.ts' && !f.path.startsWith('src/cli/') && /process\.env/.test(f.text));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('domain and storage code never imports the gateway', (t) => {
  const offenders = sources.filter(
    (f) => !f.path.startsWith('src/gateway/') && !['src/app.ts', 'src/main.ts', 'src/server.ts'].includes(f.path) && importsOf(f.text).some((i) => i.includes('/gateway/') && !i.endsWith('/services.ts')),
  );
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('storage code imports no domain', (t) => {
  const offenders = sources.filter((f) => f.path.startsWith('src/store/') && importsOf(f.text).some((i) => i.startsWith('../') && !i.startsWith('../store')));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('the git adapter knows nothing of knowledge', (t) => {
  const offenders = sources.filter((f) => f.path.startsWith('src/git/') && importsOf(f.text).some((i) => i.includes('knowledge')));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('the command-line tool imports nothing from the server side but its own files, src/shared and package.json', (t) => {
  const outside = (file: string, spec: string) => {
    if (!spec.startsWith('.')) return false;
    const target = relative(root, join(root, dirname(file), spec));
    return !target.startsWith('src/cli/') && !target.startsWith('src/shared/') && target !== 'package.json';
  };
  const offenders = sources.filter((f) => f.path.startsWith('src/cli/') && importsOf(f.text).some((i) => outside(f.path, i)));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('src/shared (formats the server and the CLI both read) imports nothing of either', (t) => {
  const offenders = sources.filter((f) => f.path.startsWith('src/shared/') && importsOf(f.text).some((i) => i.startsWith('.') && !relative(root, join(root, dirname(f.path), i)).startsWith('src/shared/')));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('no default exports and no file over 400 lines', (t) => {
  t.deepEqual(sources.filter((f) => /^export default/m.test(f.text)).map((f) => f.path), []);
  t.deepEqual(sources.filter((f) => f.text.split('\n').length > 400).map((f) => f.path), []);
});

// Each holds megabytes that a gateway needs only when the feature is used (an MCP client, OAuth, a
// GitHub mirror, SMTP, SSO, a PostgreSQL, MySQL or SQLite warehouse, a hosted model, a CLI download, Excel):
// they load on first use, through import() or a module that is itself loaded so. bench/downloads.ts
// judges the started gateway's memory.
const ON_FIRST_USE = /^(oidc-provider|ioredis|@opentelemetry\/[^/]+|nodemailer|@octokit\/[^/]+|@modelcontextprotocol\/[^/]+|openai|@anthropic-ai\/sdk|pg|mysql2|esbuild|jose|node-sql-parser|libpg-query|exceljs)(\/|$)/;

test('a started gateway loads the libraries of optional features only on first use', (t) => {
  const byPath = new Map(sources.map((f) => [f.path, f]));
  const valueImports = (text: string) => [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  const loaded = new Set<string>();
  const visit = (path: string) => {
    const file = byPath.get(path);
    if (!file || loaded.has(path)) return;
    loaded.add(path);
    for (const spec of valueImports(file.text)) if (spec.startsWith('.')) visit(relative(root, join(root, dirname(path), spec)));
  };
  visit('src/main.ts');
  t.true(loaded.size > 100, 'the import graph was followed');
  const offenders = [...loaded].flatMap((path) => valueImports(byPath.get(path)!.text).filter((spec) => ON_FIRST_USE.test(spec)).map((spec) => `${path}: ${spec}`));
  t.deepEqual(offenders, []);
});

test('the web client reaches the server only over HTTP: it imports nothing outside web/ but types', (t) => {
  const webFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? webFiles(p) : /\.tsx?$/.test(p) ? [p] : [];
    });
  const offenders = webFiles(join(root, 'web', 'src')).flatMap((p) => {
    const text = readFileSync(p, 'utf8');
    const valueImports = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    return valueImports.filter((spec) => spec.startsWith('.') && !relative(root, join(dirname(p), spec)).startsWith('web/')).map((spec) => `${relative(root, p)}: ${spec}`);
  });
  t.deepEqual(offenders, []);
});
