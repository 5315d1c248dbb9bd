// The process bench/import.ts measures: the compiled gateway (dist, as `npm start` runs it), and
// nothing else. bench/import.ts strips this file's types with esbuild and runs it with plain node, so no
// TypeScript loader sits in its memory; the client that posts the artifacts, the sign-in and `git` run
// in the bench's own process. Only types come from src; the code comes from the dist folder named on
// the command line.
//
// `node import-child.mjs <folder with relations.json> <dist folder> <data folder> [seed]` starts the
// gateway on the data folder, prints one JSON line with its URL, and runs until its standard input
// closes. With `seed` it stops once started: the first start of a data folder seeds the demo
// organization (its DuckDB warehouse, its knowledge), as a host's first start does.
//
// The warehouse's side answers from memory (this measures the import, not a warehouse's
// introspection), and like an introspection it is made anew for each import: the relations are parsed
// from their JSON text when the import asks for them, so only their text (4 MB) is held in between.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WarehouseRelation } from '../src/imports/dbt/index.ts';

const [dir, dist, dataDir, mode] = process.argv.slice(2);
if (!dir || !dist || !dataDir) throw new Error('usage: import-child.js <folder with relations.json> <dist folder> <data folder> [seed]');
const { createApp } = (await import(join(dist, 'app.js'))) as typeof import('../src/app.ts');
const { loadConfig } = (await import(join(dist, 'config.js'))) as typeof import('../src/config.ts');
const { createLogger } = (await import(join(dist, 'log.js'))) as typeof import('../src/log.ts');
const { listen } = (await import(join(dist, 'server.js'))) as typeof import('../src/server.ts');

// The demo seed gives an organization and its admin (and a demo warehouse, kept to its smallest).
const config = loadConfig({
  SEXTANT_DATA_DIR: dataDir,
  SEXTANT_PORT: '0',
  SEXTANT_DEMO_WAREHOUSE_ORDERS: '100',
  SEXTANT_UPLOAD_LIMIT: String(500 * 1024 * 1024),
  SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
});
const app = await createApp(config, { log: createLogger('error') });
const running = await listen(app, { host: '127.0.0.1', port: 0, graceMs: 1000 });
if (mode !== 'seed') {
  const relationsText = readFileSync(join(dir, 'relations.json'), 'utf8');
  app.services.imports.warehouse = { relationsOf: async () => ({ dialect: 'postgresql', relations: JSON.parse(relationsText) as WarehouseRelation[] }) };
  console.log(JSON.stringify({ url: running.url }));
  // Runs until the bench closes its standard input.
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
}
await running.stop();
