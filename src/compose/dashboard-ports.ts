// The dashboards domain's ports: saved questions under their own access rules, the governed query
// pipeline of the data plane with a dashboard's filters applied there, and principals as they are now.
import { accessInterruptedSince, getUser, principalFor, SCOPE_API_FULL } from '../auth/index.ts';
import { consumeQuota } from '../auth/credentials/rate-limit.ts';
import type { Clock } from '../clock.ts';
import type { DashboardPorts, ResultCondition } from '../dashboards/index.ts';
import { DRIVERS, executeShared, filterResultSql, QueryFailed, requestReads, resultColumnsSql, sharedExecutions, type ColumnMeta, type RequestReads, type SharedExecutions } from '../data/index.ts';
import type { DataDeps } from '../data/deps.ts';
import { QuestionNotFound, savedQuestion, savedQuestionsById, type SavedDeps, type SavedQuestion } from '../saved/index.ts';
import type { Principal } from '../auth/index.ts';
import type { Executor } from '../store/index.ts';

/** Result columns kept per statement: a statement's columns do not depend on who runs it. */
const COLUMN_CACHE_SIZE = 1000;

/** A name a warehouse gives a duplicate in a subquery (DuckDB `N_1`, SQLite `N:1`): an earlier column's, letter case aside, with a number. */
const DEDUPED = /^(.+)[_:]\d+$/;

/** Whether the wrapped statement's columns may have been renamed from the statement's own (`n`, `N` read as `n`, `N_1`). */
function mayBeRenamed(columns: ColumnMeta[]): boolean {
  const seen = new Set<string>();
  return columns.some((c) => {
    const m = DEDUPED.exec(c.name);
    const hit = m !== null && seen.has(m[1]!.toLowerCase());
    seen.add(c.name.toLowerCase());
    return hit;
  });
}

/**
 * The result columns of a statement as it names them itself, so that a filter applies only to tiles
 * that have its field and a filtered tile keeps its columns' names: asked of the warehouse once (the
 * statement wrapped to return no row, as the viewer) and then kept. DuckDB and SQLite rename columns
 * whose names collide inside the wrapper, and MySQL and MariaDB refuse them there ("Duplicate column
 * name"); only then is the statement itself asked, for a row, to learn its own names. A statement
 * that fails by itself fails that second time with its own error, not the wrapper's.
 */
function resultColumns(data: DataDeps, running: SharedExecutions) {
  const known = new Map<string, ColumnMeta[]>();
  const pending = new Map<string, Promise<ColumnMeta[]>>();
  return async (p: Principal, q: { environmentId: string | undefined; connectionId: string; sql: string }, reads: RequestReads): Promise<ColumnMeta[]> => {
    const key = JSON.stringify([p.orgId, q.connectionId, q.environmentId ?? null, q.sql]);
    const hit = known.get(key);
    if (hit) return hit;
    // One probe per statement and viewer at a time: a refusal for one viewer is not another's.
    const mine = `${key}\0${p.userId}`;
    let probe = pending.get(mine);
    if (!probe) {
      const ask = (sql: string, rowLimit?: number) =>
        executeShared(data, running, { principal: p, environmentId: q.environmentId, connectionId: q.connectionId, sql, rowLimit, source: 'dashboard', reads }).then((r) => r.columns.map((c) => ({ name: c.name, type: c.type })));
      probe = ask(resultColumnsSql(q.sql)).then(
        (wrapped) => (mayBeRenamed(wrapped) ? ask(q.sql, 1) : wrapped),
        (err: unknown) => {
          if (err instanceof QueryFailed) return ask(q.sql, 1);
          throw err;
        },
      );
      pending.set(mine, probe);
      void probe.then(
        (cols) => {
          if (known.size >= COLUMN_CACHE_SIZE) known.delete(known.keys().next().value!);
          known.set(key, cols);
        },
        () => undefined,
      ).finally(() => pending.delete(mine));
    }
    return probe;
  };
}

/** The conditions whose field the result has, each naming the column as the result spells it, with its type. */
function applicable(conditions: ResultCondition[], columns: ColumnMeta[]): (ResultCondition & { columnType: string })[] {
  return conditions.flatMap((c) => {
    const col = columns.find((m) => m.name.toLowerCase() === c.field.toLowerCase());
    return col === undefined ? [] : [{ ...c, field: col.name, columnType: col.type }];
  });
}

const tileQuestion = (q: SavedQuestion) => ({ id: q.id, ownerId: q.owner_id, title: q.title, connectionId: q.connection_id, sql: q.sql, chart: q.chart });

/** Dashboards read saved questions through their rules and run tiles through the data plane. */
export function dashboardPorts(saved: SavedDeps, data: DataDeps, store: Executor, clock: Clock): DashboardPorts {
  // Viewers opening one dashboard together share the warehouse work of identical governed statements.
  const running = sharedExecutions(clock);
  const columnsOf = resultColumns(data, running);
  return {
    async question(p, id) {
      try {
        return tileQuestion(await savedQuestion(saved, p, id));
      } catch (err) {
        if (err instanceof QuestionNotFound) return undefined;
        throw err;
      }
    },
    async questions(p, ids) {
      const found = await savedQuestionsById(saved, p, ids);
      return new Map([...found].map(([id, q]) => [id, tileQuestion(q)]));
    },
    runner(p) {
      const reads = requestReads();
      return async (q) => {
        const own = q.conditions.length === 0 ? [] : await columnsOf(p, q, reads);
        const used = applicable(q.conditions, own);
        // The filters' values travel beside the statement as bound parameters, never in its text.
        const { sql, params } = used.length === 0 ? { sql: q.sql, params: [] } : filterResultSql(DRIVERS[(await reads.connection(data, p.orgId, q.connectionId)).type].dialect, q.sql, used, own.map((c) => c.name));
        const r = await executeShared(data, running, { principal: p, environmentId: q.environmentId, connectionId: q.connectionId, sql, params, source: 'dashboard', signal: q.signal, fresh: q.fresh, reads });
        // A tile's columns are named as its statement names them, filtered or not (the wrapper may have renamed some).
        const columns = used.length > 0 && own.length === r.columns.length ? r.columns.map((c, i) => ({ ...c, name: own[i]!.name })) : r.columns;
        return { columns, rows: r.rows, truncated: r.truncated, applied: used.map((c) => c.filterId), readAt: r.readAt };
      };
    },
    async principal(orgId, userId) {
      const user = await getUser(store, userId);
      return user ? principalFor(store, user, orgId, 'session', [SCOPE_API_FULL]) : undefined;
    },
    accessInterrupted: (orgId, userId, since) => accessInterruptedSince(store, orgId, userId, since),
    throttle: (key, limit) => consumeQuota({ store, clock }, key, limit),
  };
}
