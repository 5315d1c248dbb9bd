// Real warehouses for data tests: a fresh PostgreSQL or MariaDB database per test file (skipped with
// a message when the server is absent, unless CI=true), DuckDB and SQLite files in temp folders.
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { ConnectionSettings } from '../../src/data/drivers/driver.ts';
import { PG_TEST_CONNECT_TIMEOUT_MS } from '../helpers/pg-database.ts';

/** The small retail fixture every dialect gets: customers with countries, orders per customer. */
export const FIXTURE_SQL = [
  'CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name VARCHAR(50), country VARCHAR(50))',
  'CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, country VARCHAR(50), total_amount DECIMAL(12,2), order_date DATE)',
  "INSERT INTO customers VALUES (1, 'Ann', 'Germany'), (2, 'Bob', 'France'), (3, 'Cid', 'Germany'), (4, 'Dee', 'Japan')",
  "INSERT INTO orders VALUES (1, 1, 'Germany', 10.50, '2024-01-02'), (2, 2, 'France', 20.00, '2024-02-03'), (3, 3, 'Germany', 30.25, '2024-03-04'), (4, 4, 'Japan', 40.00, '2024-04-05'), (5, 2, 'France', 5.00, '2024-05-06')",
];

const ci = process.env['CI'] === 'true';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'sextant-wh-'));
}

/** Copies `from` to `<root>/<orgId>/<name>`: where the organization's connection path `name` resolves. */
export function placeOrgFile(root: string, orgId: string, name: string, from: string): string {
  const to = join(root, orgId, name);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  return to;
}

/** A DuckDB file with the fixture. */
export async function duckdbFixture(extra: string[] = [], base = FIXTURE_SQL): Promise<ConnectionSettings> {
  const path = join(tempDir(), 'wh.duckdb');
  const inst = await DuckDBInstance.create(path);
  const c = await inst.connect();
  for (const s of [...base, ...extra]) await c.run(s);
  c.closeSync();
  inst.closeSync();
  return { path };
}

/** A SQLite file with the fixture. */
export function sqliteFixture(extra: string[] = [], base = FIXTURE_SQL): ConnectionSettings {
  const path = join(tempDir(), 'wh.sqlite');
  const db = new Database(path);
  for (const s of [...base, ...extra]) db.exec(s);
  db.close();
  return { path };
}

let n = 0;
const dbName = () => `sextant_t_${process.pid}_${++n}`;

/** A fresh PostgreSQL database with the fixture, or undefined (skip) when the server is absent. */
export async function postgresFixture(extra: string[] = [], base = FIXTURE_SQL): Promise<{ settings: ConnectionSettings; drop(): Promise<void> } | undefined> {
  const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: PG_TEST_CONNECT_TIMEOUT_MS });
  try {
    await admin.connect();
  } catch (err) {
    if (ci) throw err;
    return undefined;
  }
  const name = dbName();
  await admin.query(`CREATE DATABASE ${name}`);
  const c = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: name });
  await c.connect();
  for (const s of [...base, ...extra]) await c.query(s);
  await c.end();
  return {
    settings: { host: '127.0.0.1', port: 5432, user: 'postgres', database: name },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** A fresh MariaDB/MySQL database with the fixture, or undefined (skip) when the server is absent. */
export async function mysqlFixture(extra: string[] = [], base = FIXTURE_SQL): Promise<{ settings: ConnectionSettings; drop(): Promise<void> } | undefined> {
  let admin: mysql.Connection;
  try {
    admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', connectTimeout: 3000 });
  } catch (err) {
    if (ci) throw err;
    return undefined;
  }
  const name = dbName();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.query(`USE ${name}`);
  for (const s of [...base, ...extra]) await admin.query(s);
  return {
    settings: { host: '127.0.0.1', port: 3306, user: 'root', database: name },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

export const SKIP_PG = 'PostgreSQL is not reachable on 127.0.0.1:5432 (user postgres); skipped';
export const SKIP_MYSQL = 'MariaDB/MySQL is not reachable on 127.0.0.1:3306 (user root); skipped';
