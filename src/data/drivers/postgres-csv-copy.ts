// CSV exports of PostgreSQL connections through the server's own `COPY (...) TO STDOUT` (pg-copy-streams),
// at the server's rate instead of a cursor's FETCH round trips and a JS value per cell. What runs is the
// governed statement: it is first declared as a cursor through a named (extended-protocol) statement,
// so the server itself confirms it is one query and describes its columns, then wrapped, on lines of
// its own, in a SELECT that writes each value as the row writer (writeCsv) would. Results with a column
// type whose COPY text differs from the row writer's (floats, JSON, arrays, bytea...) answer undefined:
// the caller streams them through the row writer. The COPY is one statement however slow the reader
// is, so the budget counts only the waits for the server's next chunk (as it counts each FETCH), and the
// server's backstop for a gateway that died is `client_connection_check_interval` (PostgreSQL 14 and
// later; older servers take the cursor path) instead of a statement timeout that would cut a slow reader.
import type pg from 'pg';
import { to as copyTo, type CopyToStreamQuery } from 'pg-copy-streams';
import type { Writable } from 'node:stream';
import { csvLine, FORMULA_STARTS } from '../../shared/csv.ts';
import { crlfCsv } from '../export/crlf-csv.ts';
import { drained, ExportAborted } from '../export/drain.ts';
import type { ColumnMeta, CsvCopy } from './driver.ts';
import type { QueryBudget } from './query-budget.ts';

const TEXT = new Set([25, 1043]);
const BOOLEAN = 16;
// int2, int4, int8, numeric, date, time, timestamp, timestamptz, timetz, uuid: the server's text either way.
const AS_IS = new Set([21, 23, 20, 1700, 1082, 1083, 1114, 1184, 1266, 2950]);
/** client_connection_check_interval arrived in PostgreSQL 14. */
const CHECK_INTERVAL_VERSION = 140_000;
const FORMULA_CODES = FORMULA_STARTS.map((c) => c.charCodeAt(0));

export interface PostgresCopyParts {
  client: pg.Client;
  /** A budget for the statement's waits, made when the copy runs. */
  budget: (timeoutMs: number | undefined, signal: AbortSignal | undefined) => QueryBudget;
  typeName: (oid: number) => Promise<string>;
  /** A fresh name for a named (extended-protocol) statement. */
  statementName: () => string;
  /** Ends the statement in the server (pg_cancel_backend from another connection). */
  cancel: () => Promise<void>;
  /** Engine errors as the driver reports them. */
  failed: (err: unknown) => never;
}

/** The value of column `c` (by its alias) as the row writer writes it, or undefined when COPY cannot match it. */
function valueSql(c: string, oid: number): string | undefined {
  // Text is made inert for spreadsheets as src/shared/csv.ts does; an empty text (ascii 0) is an empty
  // field, not `""`. ascii() of the first character costs the server ~10 % of a plain COPY, left() ~150 %.
  if (TEXT.has(oid)) return `CASE ascii(${c}) WHEN 0 THEN NULL ${FORMULA_CODES.map((n) => `WHEN ${n} THEN '''' || ${c}`).join(' ')} ELSE ${c} END`;
  if (oid === BOOLEAN) return `${c}::text`;
  return AS_IS.has(oid) ? c : undefined;
}

/**
 * Describes `sql` inside a read-only transaction the caller already began, and returns its COPY, or
 * undefined (the transaction still open) when a column needs the row writer or the server is too old.
 */
export async function describePostgresCopy(parts: PostgresCopyParts, sql: string): Promise<CsvCopy | undefined> {
  const { client, typeName, failed, statementName } = parts;
  const version = Number((await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]?.v ?? 0);
  if (version < CHECK_INTERVAL_VERSION) return undefined;
  await client.query({ name: statementName(), text: `DECLARE sextant_describe NO SCROLL CURSOR FOR ${sql}` }).catch(failed);
  const described = await client.query({ text: 'FETCH 0 FROM sextant_describe', rowMode: 'array' }).catch(failed);
  await client.query('CLOSE sextant_describe');
  const values = described.fields.map((f, i) => valueSql(`c${i + 1}`, f.dataTypeID));
  if (values.some((v) => v === undefined)) return undefined;
  const columns: ColumnMeta[] = [];
  for (const f of described.fields) columns.push({ name: f.name, type: await typeName(f.dataTypeID) });
  const aliases = columns.map((_, i) => `c${i + 1}`).join(', ');
  const body = sql.replace(/[\s;]+$/, '');
  // The query sits on lines of its own so a trailing `--` comment cannot swallow the wrapper.
  const text = `COPY (SELECT ${values.join(', ')} FROM (\n${body}\n) AS q(${aliases})) TO STDOUT WITH (FORMAT csv)`;
  return { columns, run: (out, signal, timeoutMs) => runCopy(parts, text, columns, out, parts.budget(timeoutMs, signal)) };
}

/**
 * Runs the COPY into `out` (left open): the header line, then the server's rows with CRLF line ends;
 * ends the transaction. A reader that goes away or a stop ends the COPY in the server, and the rest of
 * its output is read and dropped, so the connection is left ready for the next statement.
 */
async function runCopy(parts: PostgresCopyParts, text: string, columns: ColumnMeta[], out: Writable, budget: QueryBudget): Promise<{ rows: number; bytes: number }> {
  const { client, failed } = parts;
  let copy: CopyToStreamQuery | undefined;
  let settled: Promise<unknown> | undefined;
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SET LOCAL client_connection_check_interval = 1000');
    const header = Buffer.from(csvLine(columns.map((c) => c.name)), 'utf8');
    let bytes = header.length;
    if (!out.write(header)) await drained(out);
    copy = client.query(copyTo(text));
    settled = new Promise((resolve) => copy!.once('end', resolve).once('error', resolve));
    const lines = copy.pipe(crlfCsv());
    copy.on('error', (err) => lines.destroy(err));
    const chunks = lines[Symbol.asyncIterator]();
    for (;;) {
      const next = await budget.track(chunks.next() as Promise<IteratorResult<Buffer>>).catch(failed);
      if (next.done) break;
      bytes += next.value.length;
      if (out.destroyed) throw new ExportAborted();
      if (!out.write(next.value)) await drained(out);
    }
    return { rows: copy.rowCount, bytes };
  } catch (err) {
    if (copy && !copy.readableEnded && !copy.errored) {
      copy.unpipe();
      copy.resume();
      await parts.cancel();
      await settled;
    }
    throw err;
  } finally {
    budget.dispose();
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
