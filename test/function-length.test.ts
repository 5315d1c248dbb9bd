// House rule 14: functions under 60 lines, cut into named steps. Every function, method, accessor,
// constructor and arrow function in src is measured from its first to its last line (TypeScript's
// own parser, so comments and strings cannot confuse it). A literal the function returns (a route
// table, the object of methods a factory builds) is not counted: it is a table, not steps, and every
// function inside it is measured on its own, as the methods of a class are.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import ts from 'typescript';

const MAX_LINES = 60;

/**
 * Functions allowed past the limit, each with its reason. Keep this short: a new entry needs one.
 * Key: `<path>:<name>`.
 */
const ALLOWED = new Map<string, string>([]);

const root = join(import.meta.dirname, '..');
const files = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
  .map((f) => join('src', f).replaceAll('\\', '/'));

/** The name a reader finds a function by: its own, or the variable, property or call it is given to. */
function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sf);
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

const lineCount = (sf: ts.SourceFile, node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getEnd()).line - sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

/** Array and object literals the function returns directly (its own `return`s, not nested functions'). */
function returnedLiterals(body: ts.Node): ts.Node[] {
  const literal = (e: ts.Expression | undefined): ts.Node[] => {
    let x = e;
    while (x && (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x))) x = x.expression;
    return x && (ts.isArrayLiteralExpression(x) || ts.isObjectLiteralExpression(x)) ? [x] : [];
  };
  if (!ts.isBlock(body)) return literal(body as ts.Expression);
  const out: ts.Node[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isReturnStatement(n)) out.push(...literal(n.expression));
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

interface LongFunction {
  key: string;
  lines: number;
}

function longFunctions(path: string): LongFunction[] {
  const text = readFileSync(join(root, path), 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineCount(sf, node) - returnedLiterals(node.body as ts.Node).reduce((n, l) => n + lineCount(sf, l) - 1, 0);
      if (lines > MAX_LINES) out.push({ key: `${path}:${nameOf(node, sf)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const found = files.flatMap(longFunctions);

test(`no function in src is longer than ${MAX_LINES} lines, except the reasoned allow-list`, (t) => {
  const over = found.filter((f) => !ALLOWED.has(f.key)).map((f) => `${f.key} (${f.lines} lines)`);
  t.deepEqual(over, [], 'cut these into named steps');
});

test('every entry of the allow-list is still over the limit (no stale exceptions)', (t) => {
  const keys = new Set(found.map((f) => f.key));
  t.deepEqual([...ALLOWED.keys()].filter((k) => !keys.has(k)), []);
});
