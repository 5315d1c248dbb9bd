// The demo evaluation's expected answers come from the demo warehouse: at seed time each question's
// expected_sql runs on the generated warehouse (as the demo admin, through the governed query path),
// so a demo of any size (SEXTANT_DEMO_WAREHOUSE_ORDERS) ships an evaluation its data answers. The
// fixture file carries the answers of the default size, as a readable example.
import { findUserByEmail, principalFor, SCOPE_API_FULL } from '../auth/index.ts';
import { executeQuery } from '../data/index.ts';
import type { Services } from '../gateway/services.ts';
import { parseYaml, updateYaml, type SeedTransform } from '../knowledge/index.ts';

type Question = Record<string, unknown> & { expected_sql?: unknown; expected_answer?: unknown; answer_type?: unknown };

/** Fills `expected_answer` of every question with an `expected_sql` in `evaluations/` files from the warehouse. */
export function answersFromWarehouse(s: Pick<Services, 'store' | 'data'>, orgId: string, adminEmail: string, connectionId: string): SeedTransform {
  return async (path, content) => {
    if (!path.startsWith('evaluations/')) return content;
    const doc = parseYaml(content).value as { questions?: Question[] } | undefined;
    const user = findUserByEmail(s.store.db, adminEmail);
    const principal = user && principalFor(s.store.db, user, orgId, 'session', [SCOPE_API_FULL]);
    if (!principal || !Array.isArray(doc?.questions)) return content;
    for (const q of doc.questions) {
      if (typeof q.expected_sql !== 'string') continue;
      const result = await executeQuery(s.data, { principal, environmentId: undefined, connectionId, sql: q.expected_sql, rowLimit: 2, source: 'seed' });
      const cell = result.rows.length === 1 && result.rows[0]!.length === 1 ? result.rows[0]![0] : undefined;
      const answer = answerOf(cell, q.answer_type);
      if (answer !== undefined) q.expected_answer = answer;
    }
    return updateYaml(content, doc as Record<string, unknown>);
  };
}

/** A result cell as a suite answer: a day for dates, else a number kept to 6 significant digits past the point. */
function answerOf(cell: unknown, type: unknown): number | string | undefined {
  if (type === 'date') return typeof cell === 'string' ? cell.slice(0, 10) : cell instanceof Date ? cell.toISOString().slice(0, 10) : undefined;
  const n = typeof cell === 'number' ? cell : typeof cell === 'bigint' || typeof cell === 'string' ? Number(cell) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return Number.isInteger(n) || Math.abs(n) >= 1000 ? Math.round(n * 100) / 100 : Number(n.toPrecision(6));
}
