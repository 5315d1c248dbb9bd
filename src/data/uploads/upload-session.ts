// Inside a query process: runs one SELECT over a session's uploaded data files in a locked-down,
// throwaway DuckDB: in memory, no extension loading, files readable only inside the session folder,
// configuration locked. The gateway's side (query-uploads.ts) holds the budget and kills the process
// when it is spent: nothing here runs on the gateway's event loop.
import { mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { serializeSelect } from '../duckdb-select-tree.ts';
import { duckDbBatches, duckDbColumns } from '../export/duckdb-batches.ts';
import { UploadQueryFailed, UploadQueryRefused } from './errors.ts';
import { DATA_KINDS, kindFromName, type FileKind } from './file-types.ts';
import { loadXlsx, quoteIdent } from './load-xlsx.ts';
import type { UploadQueryResult, UploadTable } from './upload-types.ts';

export interface UploadSessionLimits {
  maxRows: number;
  maxXlsxBytes: number;
  /** DuckDB's own memory limit, in bytes (below the process's). */
  engineBytes: number;
  /** The process's private folder: the query's spill folder is made (and removed) inside it. */
  tempParent: string;
}

/** Runs one SELECT over the data files of `sessionDir` (each file is a table named after it). */
export async function runUploadQuery(sessionDir: string, sql: string, limits: UploadSessionLimits): Promise<UploadQueryResult> {
  const { maxRows, maxXlsxBytes } = limits;
  // DuckDB's temp folder stays readable when external access is off, and its default (`.tmp` in the
  // working directory) is shared by every session: each query gets its own.
  const spill = await mkdtemp(join(limits.tempParent, 'uploads-'));
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    memory_limit: `${Math.floor(limits.engineBytes / 1024)}KiB`,
    threads: '2',
    temp_directory: spill,
  }).catch(async (err: unknown) => {
    await rm(spill, { recursive: true, force: true });
    throw err;
  });
  const conn = await instance.connect();
  try {
    const tables = await prepareSession(conn, sessionDir, maxXlsxBytes);
    const prepared = await singleSelect(conn, sql);
    const result = await prepared.stream().catch(failed);
    const columns = duckDbColumns(result);
    const rows: unknown[][] = [];
    let truncated = false;
    for await (const batch of duckDbBatches(result)) {
      for (const row of batch.rows) {
        if (rows.length === maxRows) {
          truncated = true;
          break;
        }
        rows.push(row.map(cloneable));
      }
      if (truncated) break;
    }
    return { columns, rows, rowCount: rows.length, truncated, tables };
  } catch (err) {
    throw err instanceof UploadQueryRefused || err instanceof UploadQueryFailed ? err : failed(err);
  } finally {
    conn.closeSync();
    instance.closeSync();
    await rm(spill, { recursive: true, force: true });
  }
}

/**
 * A value as it can cross to the gateway: DuckDB's value classes (decimals, intervals, lists...) would
 * arrive as bare objects without their methods, so they travel as their text.
 */
function cloneable(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || v instanceof Date) return v;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === Object.prototype || proto === Array.prototype || proto === null ? v : String(v);
}

function failed(err: unknown): never {
  throw new UploadQueryFailed(err instanceof Error ? err.message : String(err));
}

/** Loads the session's files as tables and views, then locks DuckDB down (order matters: see notes). */
async function prepareSession(conn: DuckDBConnection, sessionDir: string, maxXlsxBytes: number): Promise<UploadTable[]> {
  const root = await realpath(sessionDir).catch(() => undefined);
  const files = root ? await dataFiles(root) : [];
  const names = new Set<string>();
  const tableName = (base: string) => {
    let name = base.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'data';
    if (/^[0-9]/.test(name)) name = `t_${name}`;
    for (let i = 2; names.has(name); i++) name = `${name.replace(/_\d+$/, '')}_${i}`;
    names.add(name);
    return name;
  };
  const tables: UploadTable[] = [];
  for (const f of files.filter((x) => x.kind === 'xlsx')) {
    try {
      if ((await stat(join(root!, f.file))).size > maxXlsxBytes) throw new Error(`workbook larger than ${maxXlsxBytes} bytes; convert it to CSV or Parquet to query it`);
      const stem = stemOf(f.file);
      const created = await loadXlsx(conn, join(root!, f.file), (sheet, i) => tableName(i === 0 ? stem : `${stem}_${sheet}`));
      for (const name of created) tables.push({ name, file: f.file, kind: 'xlsx' });
    } catch (err) {
      tables.push({ name: '', file: f.file, kind: 'xlsx', error: err instanceof Error ? err.message : String(err) });
    }
  }
  const allowed = root ? [`${root}/`] : [];
  await conn.run(`SET allowed_directories = [${allowed.map(literal).join(', ')}]`);
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
  for (const f of files.filter((x) => x.kind !== 'xlsx')) {
    const name = tableName(stemOf(f.file));
    const path = literal(join(root!, f.file));
    const reader = { csv: `read_csv(${path})`, tsv: `read_csv(${path}, delim = '\t')`, json: `read_json_auto(${path})`, parquet: `read_parquet(${path})` }[f.kind as 'csv'];
    try {
      await conn.run(`CREATE VIEW ${quoteIdent(name)} AS SELECT * FROM ${reader}`);
      tables.push({ name, file: f.file, kind: f.kind });
    } catch (err) {
      names.delete(name);
      tables.push({ name: '', file: f.file, kind: f.kind, error: (err instanceof Error ? err.message : String(err)).split('\n')[0]! });
    }
  }
  return tables;
}

/**
 * Exactly one statement, and a SELECT. The parser decides first (json_serialize_sql serializes only
 * SELECTs), before anything is bound: binding COPY or EXPORT already touches files. DuckDB's own
 * classification of the prepared statement is the second check.
 */
async function singleSelect(conn: DuckDBConnection, sql: string) {
  const extracted = await conn.extractStatements(sql).catch(failed);
  if (extracted.count !== 1) throw new UploadQueryRefused(`expected one statement, got ${extracted.count}`);
  const judged = await serializeSelect(conn, sql).catch(failed);
  if (!judged.ok && judged.reason === 'not_select') throw new UploadQueryRefused('the statement is not a SELECT');
  if (!judged.ok) failed(new Error(judged.message));
  const prepared = await extracted.prepare(0).catch(failed);
  if (prepared.statementType !== StatementType.SELECT) throw new UploadQueryRefused('the statement is not a SELECT');
  return prepared;
}

const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
const stemOf = (file: string) => file.replace(/\.[^./]+$/, '').split('/').pop() ?? 'data';

async function dataFiles(root: string): Promise<{ file: string; kind: FileKind }[]> {
  const out: { file: string; kind: FileKind }[] = [];
  async function walk(dir: string) {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      const kind = e.isFile() ? kindFromName(e.name) : undefined;
      if (kind && DATA_KINDS.has(kind)) out.push({ file: relative(root, p).split('\\').join('/'), kind });
    }
  }
  await walk(root);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}
