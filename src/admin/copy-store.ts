// `sextant-admin copy-store`: moves a SQLite installation's service database onto PostgreSQL and
// prints what arrived, table by table. Exit 1 when any table differs (nothing is kept then).
import { dirname } from 'node:path';
import type { Config } from '../config.ts';
import { lockDataDir } from '../store/data-dir-lock.ts';
import { sourceFile } from '../store/copy-source.ts';
import { copyStore, type CopyReport } from '../store/copy-store.ts';
import { redactDatabaseUrl } from '../store/pg-open.ts';
import type { AdminOutput } from './output.ts';

interface CopyFlags {
  from?: string;
  to?: string;
  truncate?: boolean;
  batchRows: string;
}

function printReport(report: CopyReport, output: AdminOutput): void {
  const width = Math.max(5, ...report.tables.map((t) => t.table.length));
  output.out(`${'table'.padEnd(width)}  ${'source'.padStart(8)}  ${'target'.padStart(8)}  checksum`);
  for (const t of report.tables) {
    const note = t.alteredValues > 0 ? `  (${t.alteredValues} values: NUL characters replaced by U+FFFD)` : '';
    output.out(`${t.table.padEnd(width)}  ${String(t.sourceRows).padStart(8)}  ${String(t.targetRows).padStart(8)}  ${t.ok ? 'match' : 'MISMATCH'} ${t.targetChecksum.slice(0, 16)}${note}`);
  }
  output.out(report.ok ? `All ${report.tables.length} tables copied and verified.` : 'Some tables differ: the copy was rolled back, the target is as it was.');
}

export async function copyStoreCommand(config: Config, flags: CopyFlags, output: AdminOutput): Promise<number> {
  const to = flags.to ?? config.databaseUrl;
  if (!to || !/^postgres(ql)?:\/\//.test(to)) throw new Error('--to (or SEXTANT_DATABASE_URL) must be a postgres:// or postgresql:// URL');
  const batchRows = Number(flags.batchRows);
  if (!Number.isInteger(batchRows) || batchRows < 1) throw new Error('--batch-rows must be a positive integer');
  const from = sourceFile(flags.from ?? config.dataDir);
  // A server writing the source while it is copied would lose what it writes after the snapshot.
  const lock = lockDataDir(dirname(from));
  try {
    output.out(`Copying ${from} into ${redactDatabaseUrl(to)}`);
    const report = await copyStore({ from, to, truncate: !!flags.truncate, batchRows });
    printReport(report, output);
    return report.ok ? 0 : 1;
  } finally {
    lock.release();
  }
}
