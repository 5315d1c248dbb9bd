// The web client's pages as web/src/routes.tsx declares them, read from its syntax tree (the file is
// JSX for the browser and cannot be imported here): a page added there is a page the tests visit.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const ROUTES = new URL('../../web/src/routes.tsx', import.meta.url).pathname;

function property(node: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of node.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name) return p.initializer;
  return undefined;
}

function join(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** Every page path of the route objects in `list` (layouts without a path pass their prefix on). */
function collect(list: ts.ArrayLiteralExpression, parent: string, out: string[]): void {
  for (const el of list.elements) {
    if (!ts.isObjectLiteralExpression(el)) continue;
    const path = property(el, 'path');
    const here = path && ts.isStringLiteral(path) ? join(parent, path.text) : parent;
    const children = property(el, 'children');
    if (children && ts.isArrayLiteralExpression(children)) collect(children, here, out);
    // Layouts (routes with children) are no page of their own, nor redirects (`element: <Navigate>`).
    else if (!property(el, 'element')?.getText().includes('<Navigate')) out.push(here || '/');
  }
}

/** The paths of every page in web/src/routes.tsx, parameters as written (`/chat/:chatId`), `*` for the not-found page. */
export function webRoutePaths(): string[] {
  const source = ts.createSourceFile(ROUTES, readFileSync(ROUTES, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'routes' && node.initializer && ts.isArrayLiteralExpression(node.initializer)) collect(node.initializer, '', out);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(out)];
}
