// The full SQL corpora (test/fixtures/sql/) through the governed query function every path calls
// (REST, context agent, MCP run_query, the agent's run_sql and downloads all go through
// governStatement), as a German user whose row filter applies, on real PostgreSQL, MariaDB, DuckDB and
// SQLite. Goal: 0 hostile executed, 0 hidden rows seen, 100 % valid answered (and equal to the oracle),
// no 5xx. test/data/corpus/corpus-paths.test.ts sends a sample through each HTTP path.
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor, type Principal } from '../../../src/auth/index.ts';
import { AppError } from '../../../src/errors.ts';
import { executeQuery } from '../../../src/data/query/index.ts';
import { directRows, extraRows, rowLines, setUpCorpus, type CorpusSetup, type CorpusWarehouse } from './corpus-setup.ts';
import { DIALECTS, HIDDEN_MARKERS, loadCorpus } from './corpus-warehouse.ts';

let c: CorpusSetup;
let german: Principal;
test.before(async () => {
  c = await setUpCorpus();
  const db = c.app.app.services.store.sqlite!;
  german = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), c.german.id))!, c.org, 'session', []))!;
});
test.after.always(() => c?.close());

type Outcome = { rows: unknown[][] } | { error: unknown };

async function run(w: CorpusWarehouse, sql: string): Promise<Outcome> {
  try {
    return { rows: (await executeQuery(c.app.app.services.data, { principal: german, environmentId: undefined, connectionId: w.connectionId, sql, source: 'corpus' })).rows };
  } catch (error) {
    return { error };
  }
}

/** An error a gateway would answer with a 5xx. */
const is5xx = (err: unknown) => !(err instanceof AppError) || err.kind === 'unavailable';
const hiddenIn = (text: string) => HIDDEN_MARKERS.filter((m) => text.includes(m));
const warehouse = (dialect: string) => c.warehouses.find((w) => w.dialect === dialect);

for (const dialect of DIALECTS) {
  test.serial(`${dialect}: every valid analytical query of the corpus is answered, as the oracle answers it`, async (t) => {
    const w = warehouse(dialect);
    if (!w) return t.log(`${dialect} is not reachable here; skipped (CI runs it)`), t.pass();
    const entries = loadCorpus('valid', dialect);
    const failures: string[] = [];
    let answered = 0;
    let fives = 0;
    for (const e of entries) {
      const out = await run(w, e.sql);
      if ('error' in out) {
        if (is5xx(out.error)) fives++;
        failures.push(`${e.id}: ${(out.error as Error).message}`);
        continue;
      }
      answered++;
      if (!e.compare) continue;
      const expected = await directRows(w.oracle, e.sql);
      if (JSON.stringify(rowLines(out.rows)) !== JSON.stringify(rowLines(expected))) failures.push(`${e.id}: answer differs from the oracle: ${JSON.stringify(out.rows).slice(0, 300)} vs ${JSON.stringify(expected).slice(0, 300)}`);
    }
    t.log(`${dialect}: valid answered ${answered}/${entries.length} (${((100 * answered) / entries.length).toFixed(1)} %), 5xx ${fives}`);
    t.true(entries.length >= 90, `${entries.length} valid queries for ${dialect}`);
    t.deepEqual(failures, []);
  });

  test.serial(`${dialect}: no hostile statement of the corpus reaches the warehouse`, async (t) => {
    const w = warehouse(dialect);
    if (!w) return t.log(`${dialect} is not reachable here; skipped (CI runs it)`), t.pass();
    const entries = loadCorpus('hostile', dialect);
    const executed: string[] = [];
    let fives = 0;
    for (const e of entries) {
      const out = await run(w, e.sql);
      // Refused by the guard, or for class recursion stopped by the warehouse at its cap.
      const refused = 'error' in out && out.error instanceof AppError && out.error.code === e.expect;
      if ('error' in out && is5xx(out.error)) fives++;
      if (!refused) executed.push(`${e.class}: ${e.sql} -> ${'error' in out ? (out.error as Error).message : 'answered'}`);
    }
    t.log(`${dialect}: hostile executed ${executed.length}/${entries.length}, 5xx ${fives}`);
    t.deepEqual(executed, []);
    t.is(fives, 0);
  });

  test.serial(`${dialect}: no row-security escape of the corpus shows a hidden row`, async (t) => {
    const w = warehouse(dialect);
    if (!w) return t.log(`${dialect} is not reachable here; skipped (CI runs it)`), t.pass();
    const entries = loadCorpus('escapes', dialect);
    const leaks: string[] = [];
    let seen = 0;
    let fives = 0;
    let refused = 0;
    for (const e of entries) {
      const out = await run(w, e.sql);
      if ('error' in out) {
        if (is5xx(out.error)) fives++;
        if (out.error instanceof AppError && out.error.code === 'QUERY_REFUSED') refused++;
        const shown = hiddenIn((out.error as Error).message);
        if (shown.length) leaks.push(`${e.class}: ${e.sql} -> error shows ${shown.join(', ')}`);
        seen += shown.length ? 1 : 0;
        continue;
      }
      const expected = await directRows(w.oracle, e.sql).catch(() => [] as unknown[][]);
      const extra = extraRows(out.rows, expected).filter((l) => hiddenIn(l).length > 0 || !e.sql.includes('SAMPLE'));
      seen += extra.length;
      if (extra.length) leaks.push(`${e.class}: ${e.sql} -> ${extra.length} rows beyond the oracle: ${extra.slice(0, 3).join(' ')}`);
    }
    t.log(`${dialect}: escapes ${entries.length} (refused ${refused}), hidden rows seen ${seen}, 5xx ${fives}`);
    t.deepEqual(leaks, []);
    t.is(fives, 0);
  });
}
