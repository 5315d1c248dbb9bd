// Drivers by connection type. Snowflake, BigQuery, Redshift, Databricks and ClickHouse plug in here
// with a factory and a dialect; nothing else in the data plane changes.
import type { SqlDialect } from '../types.ts';
import type { DriverFactory } from './driver.ts';
import { openDuckDb } from './duckdb-driver.ts';
import { openSqlite } from './sqlite-driver.ts';

export interface DriverEntry {
  open: DriverFactory;
  dialect: SqlDialect;
  /** Whether the connection is a file on this machine (path) or a server (host, port...). */
  kind: 'file' | 'server';
}

export const CONNECTION_TYPES = ['duckdb', 'postgresql', 'mysql', 'mariadb', 'sqlite'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

// Server drivers load their client library on first use: a gateway without such a connection
// does not carry pg or mysql2.
const openPostgres: DriverFactory = async (settings) => (await import('./postgres-driver.ts')).openPostgres(settings);
const openMysql: DriverFactory = async (settings, ctx) => (await import('./mysql-driver.ts')).openMysql(settings, ctx);

/** The built-in drivers. */
export const DRIVERS: Record<ConnectionType, DriverEntry> = {
  duckdb: { open: openDuckDb, dialect: 'duckdb', kind: 'file' },
  postgresql: { open: openPostgres, dialect: 'postgresql', kind: 'server' },
  mysql: { open: openMysql, dialect: 'mysql', kind: 'server' },
  mariadb: { open: openMysql, dialect: 'mysql', kind: 'server' },
  sqlite: { open: openSqlite, dialect: 'sqlite', kind: 'file' },
};
