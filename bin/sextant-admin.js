#!/usr/bin/env node
// `sextant-admin` (migrate, copy-store): runs the compiled build in dist (`npm run build`), as the
// server does; in a checkout that has none, the TypeScript sources through tsx.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/admin/run.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/admin/run.ts');
}
