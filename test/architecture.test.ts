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

test('nothing but the composition root imports the gateway (compose included: the gateway imports compose, never the reverse)', (t) => {
  const offenders = sources.filter((f) => !f.path.startsWith('src/gateway/') && !['src/app.ts', 'src/main.ts', 'src/server.ts'].includes(f.path)).flatMap((f) => edgesOf(f).filter((e) => e.target.startsWith('src/gateway/')).map((e) => `${f.path} imports ${e.spec}`));
  t.deepEqual(offenders, []);
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

test('src/shared (formats the server, the CLI and the web client read) imports nothing of them', (t) => {
  const offenders = sources.filter((f) => f.path.startsWith('src/shared/') && importsOf(f.text).some((i) => i.startsWith('.') && !relative(root, join(root, dirname(f.path), i)).startsWith('src/shared/')));
  t.deepEqual(offenders.map((f) => f.path), []);
});

test('no default exports', (t) => {
  t.deepEqual(sources.filter((f) => /^export default/m.test(f.text)).map((f) => f.path), []);
});

// Each holds megabytes that a gateway needs only when the feature is used (an MCP client, OAuth, a
// GitHub mirror, SMTP, SSO, a PostgreSQL, MySQL or SQLite warehouse, a hosted model, a CLI download, Excel,
// a chart drawn on the server):
// they load on first use, through import() or a module that is itself loaded so. bench/downloads.ts
// judges the started gateway's memory.
const ON_FIRST_USE = /^(oidc-provider|ioredis|@opentelemetry\/[^/]+|nodemailer|@octokit\/[^/]+|@modelcontextprotocol\/[^/]+|openai|@anthropic-ai\/sdk|pg|mysql2|esbuild|jose|node-sql-parser|libpg-query|exceljs|vega|vega-lite|vega-interpreter|@resvg\/resvg-js)(\/|$)/;

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

// As the CLI may, the web client shares src/shared's formats (how a table shows its values, as report
// mails do), but only a module that imports nothing at all: no server code, no server library.
test('the web client reaches the server only over HTTP: it imports nothing outside web/ but types and self-contained src/shared modules', (t) => {
  const webFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? webFiles(p) : /\.tsx?$/.test(p) ? [p] : [];
    });
  const selfContained = (target: string) => target.startsWith('src/shared/') && importsOf(readFileSync(join(root, target), 'utf8')).length === 0;
  const offenders = webFiles(join(root, 'web', 'src')).flatMap((p) => {
    const text = readFileSync(p, 'utf8');
    const valueImports = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    const outside = (spec: string) => {
      const target = relative(root, join(dirname(p), spec));
      return !target.startsWith('web/') && !selfContained(target);
    };
    return valueImports.filter((spec) => spec.startsWith('.') && outside(spec)).map((spec) => `${relative(root, p)}: ${spec}`);
  });
  t.deepEqual(offenders, []);
});

// ---- The layers of ../shared/design.md: gateway -> compose -> domains -> kernel and storage. ----

/** Folders that hold one domain each; a domain reaches another only through ports that compose implements. */
const DOMAINS = ['auth', 'knowledge', 'agent', 'chats', 'data', 'evaluations', 'mcp', 'imports', 'saved', 'dashboards', 'subscriptions'];
/** What every layer may use: no domain knowledge in them. */
const KERNEL = ['errors.ts', 'clock.ts', 'config.ts', 'config-secrets.ts', 'log.ts', 'sql-expression.ts', 'mail', 'security', 'outbound', 'store', 'git', 'shared', 'distribution', 'ops', 'charts'];
/** The edge, the application layer, the composition root and the programs that are not the server (admin: sextant-admin). */
const OUTSIDE = ['gateway', 'compose', 'app.ts', 'main.ts', 'server.ts', 'knowledge-check.ts', 'cli', 'admin'];

const topOf = (path: string) => path.split('/')[1]!;
const domainOf = (path: string) => (path.split('/').length > 2 && DOMAINS.includes(topOf(path)) ? topOf(path) : undefined);

interface Edge {
  spec: string;
  /** The imported file, relative to the repository. */
  target: string;
  /** Named imports (`{ a, type B }`); undefined for a namespace, default or re-export. */
  names: string[] | undefined;
}

/** Every static import and re-export of a file to another file of the repository, type-only ones included. */
function edgesOf(f: { path: string; text: string }): Edge[] {
  return [...f.text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s+['"](\.[^'"]+)['"]/gm)].map((m) => {
    const braces = m[1] === 'import' ? /^\{([^}]*)\}$/.exec(m[3]!.trim()) : null;
    return {
      spec: m[4]!,
      target: relative(root, join(root, dirname(f.path), m[4]!)),
      names: braces ? braces[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean) : undefined,
    };
  });
}

/** Who acts and with which role: the one part of auth every domain may read. */
const PRINCIPAL_NAMES = new Set([...readFileSync(join(root, 'src/auth/principal.ts'), 'utf8').matchAll(/^export (?:const|type|interface|function|class) (\w+)/gm)].map((m) => m[1]!));
const readsOnlyThePrincipal = (e: Edge) => ['src/auth/index.ts', 'src/auth/principal.ts'].includes(e.target) && e.names !== undefined && e.names.every((n) => PRINCIPAL_NAMES.has(n));

/** The domains a file imports, auth counted only when it asks for more than the principal and roles. */
const domainsImported = (f: { path: string; text: string }) => new Set(edgesOf(f).filter((e) => !readsOnlyThePrincipal(e)).flatMap((e) => domainOf(e.target) ?? []));

test('every folder and file at the top of src has its place in the layers', (t) => {
  const tops = [...new Set(sources.map((f) => topOf(f.path)))];
  t.deepEqual(tops.filter((x) => ![...DOMAINS, ...KERNEL, ...OUTSIDE].includes(x)), []);
});

test('a domain imports no other domain but auth\'s principal and roles', (t) => {
  const offenders = sources.flatMap((f) => {
    const own = domainOf(f.path);
    if (!own) return [];
    return edgesOf(f).filter((e) => domainOf(e.target) !== undefined && domainOf(e.target) !== own && !readsOnlyThePrincipal(e)).map((e) => `${f.path} imports ${e.spec}${e.names ? ` { ${e.names.join(', ')} }` : ''}`);
  });
  t.deepEqual(offenders, []);
});

test('kernel and storage code imports no domain, no compose and no gateway', (t) => {
  const upper = (target: string) => domainOf(target) !== undefined || ['gateway', 'compose'].includes(topOf(target)) || target === 'src/app.ts';
  const offenders = sources.filter((f) => KERNEL.includes(topOf(f.path))).flatMap((f) => edgesOf(f).filter((e) => upper(e.target)).map((e) => `${f.path} imports ${e.spec}`));
  t.deepEqual(offenders, []);
});

/**
 * Gateway route files that still import two domains. Each is a debt with its way out named; the test
 * fails when one is paid, so the list only shrinks.
 */
const TWO_DOMAINS_ALLOWED: Record<string, string> = {};

test('only src/compose and app.ts import two domains', (t) => {
  const offenders = sources
    .filter((f) => !f.path.startsWith('src/compose/') && f.path !== 'src/app.ts')
    .map((f) => ({ path: f.path, domains: [...domainsImported(f)].sort() }))
    .filter((f) => f.domains.length > 1 && TWO_DOMAINS_ALLOWED[f.path] !== f.domains.join(', '))
    .map((f) => `${f.path} imports ${f.domains.join(', ')}`);
  t.deepEqual(offenders, []);
  const paid = Object.keys(TWO_DOMAINS_ALLOWED).filter((path) => domainsImported(sources.find((f) => f.path === path) ?? { path, text: '' }).size < 2);
  t.deepEqual(paid, [], 'these no longer import two domains: take them off TWO_DOMAINS_ALLOWED');
});

/** The owner of every table the migrations create: only that domain's folder holds SQL naming it. */
const TABLE_OWNERS: Record<string, string> = {
  auth: 'organizations users memberships sessions api_tokens audit_log account_tokens account_mail_requests rate_limits mfa_recovery_codes org_email_domains sso_configs sso_identities sso_logins cli_logins user_memories dismissed_disclaimers oauth_models oauth_keys invitations org_settings org_email_domain_claims org_email_domain_links',
  mail: 'outbox',
  knowledge: 'environments knowledge_mirrors',
  data: 'connections query_log query_log_tables warehouse_relations groups group_members user_attributes',
  chats: 'chats chat_messages chat_messages_fts chat_messages_fts_pending chat_messages_terms chat_messages_terms_backfill chat_messages_terms_pending chat_shares chat_labels chat_feedback',
  agent: 'agent_runs agent_events agent_event_ids agent_usage agent_feedback credit_limits',
  evaluations: 'evaluation_runs evaluation_results evaluation_settings',
  imports: 'dbt_imports',
  saved: 'saved_questions saved_question_versions',
  dashboards: 'dashboards dashboard_tiles dashboard_shares',
  subscriptions: 'subscriptions subscription_runs subscription_deliveries subscription_unsubscribes',
};
const OWNER = new Map(Object.entries(TABLE_OWNERS).flatMap(([domain, tables]) => tables.split(' ').map((table) => [table, domain] as const)));

test('every table the migrations create has exactly one owner in TABLE_OWNERS', (t) => {
  // SQLite's migrations; their PostgreSQL twins (postgres/) create the same tables, as test/store/dialect-parity.test.ts checks.
  const dir = join(root, 'src/store/migrations');
  const created = readdirSync(dir).filter((f) => f.endsWith('.sql')).flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/gi)].map((m) => m[1]!.toLowerCase()));
  t.deepEqual(created.filter((table) => !OWNER.has(table)), [], 'tables without an owner');
  t.deepEqual([...OWNER.keys()].filter((table) => !created.includes(table)), [], 'owners of tables no migration creates');
  t.is(OWNER.size, Object.values(TABLE_OWNERS).join(' ').split(' ').length, 'a table listed twice');
});

/** SQL naming another domain's table, with the way out. Fails when paid, so the list only shrinks. */
const FOREIGN_SQL_ALLOWED: Record<string, string> = {};

test('no SQL outside the domain that owns the table (none in the gateway)', (t) => {
  const foreign = (f: { path: string; text: string }) => {
    const home = topOf(f.path);
    const tables = [...f.text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)\b/g)].map((m) => m[1]!).filter((table) => OWNER.has(table) && OWNER.get(table) !== home);
    return [...new Set(tables)].sort().join(', ');
  };
  const offenders = sources
    .filter((f) => !f.path.startsWith('src/store/') && foreign(f) !== '' && FOREIGN_SQL_ALLOWED[f.path] !== foreign(f))
    .map((f) => `${f.path}: ${foreign(f)}`);
  t.deepEqual(offenders, []);
  const paid = Object.keys(FOREIGN_SQL_ALLOWED).filter((path) => foreign(sources.find((f) => f.path === path) ?? { path, text: '' }) === '');
  t.deepEqual(paid, [], 'these no longer run foreign SQL: take them off FOREIGN_SQL_ALLOWED');
});

test('the gateway runs no SQL: it imports nothing of src/store and prepares no statement', (t) => {
  const offenders = sources
    .filter((f) => f.path.startsWith('src/gateway/'))
    .flatMap((f) => [
      ...edgesOf(f).filter((e) => topOf(e.target) === 'store').map((e) => `${f.path} imports ${e.spec}`),
      ...[...f.text.matchAll(/\.(prepare|pragma)\(|\bstatement\(/g)].map((m) => `${f.path}: ${m[0]}`),
    ]);
  t.deepEqual(offenders, []);
});

/**
 * The gateway never holds the raw database handle: a handler calls one domain (or compose) function
 * with the deps compose built once (Services.auth, .chats, .data, .usage ...). Destructuring the store
 * (`const { db } = s.store`) counts too.
 */
test('no store.db in src/gateway', (t) => {
  const uses = sources
    .filter((f) => f.path.startsWith('src/gateway/'))
    .filter((f) => /\bstore\.db\b|\{[^}]*\bdb\b[^}]*\}\s*=\s*[\w.]*\bstore\b/.test(f.text))
    .map((f) => f.path);
  t.deepEqual(uses, []);
});

test('no import cycles, type-only imports included', (t) => {
  const known = new Set(sources.map((f) => f.path));
  const graph = new Map(sources.map((f) => [f.path, [...new Set(edgesOf(f).map((e) => e.target).filter((target) => known.has(target)))]]));
  // Depth-first search; a back edge closes a cycle, reported as the chain of files.
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (path: string) => {
    state.set(path, 'open');
    stack.push(path);
    for (const next of graph.get(path)!) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const path of graph.keys()) if (!state.has(path)) visit(path);
  t.deepEqual(cycles, []);
});

/** Files allowed over 300 lines, each with its reason. */
const LONG_FILES_ALLOWED: Record<string, string> = {
  'src/config.ts': 'the one reader of process.env: every variable with its default, its check and its warning in one place',
};

test('no file over 300 lines but the reasoned few', (t) => {
  const long = sources.filter((f) => f.text.split('\n').length > 300).map((f) => f.path);
  t.deepEqual(long.filter((path) => !LONG_FILES_ALLOWED[path]).map((path) => `${path}: ${sources.find((f) => f.path === path)!.text.split('\n').length} lines`), []);
  t.deepEqual(Object.keys(LONG_FILES_ALLOWED).filter((path) => !long.includes(path)), [], 'these are 300 lines or fewer now: take them off LONG_FILES_ALLOWED');
});
