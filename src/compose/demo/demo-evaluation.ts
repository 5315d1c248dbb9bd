// The demo evaluation's expected answers come from the demo warehouse: at seed time each question's
// expected_sql runs on the generated warehouse, so a demo of any size (SEXTANT_DEMO_WAREHOUSE_ORDERS)
// ships an evaluation its data answers. The queries go to the warehouse file the service itself just
// generated, through its driver, not through the governed path: they are not anyone's questions and
// stay out of the query log (which ranks tables by use). The fixture carries the default size's answers.
import { openConnection } from '../../data/index.ts';
import type { Services } from '../services.ts';
import { parseYaml, updateYaml, type SeedTransform } from '../../knowledge/index.ts';

type Question = Record<string, unknown> & { expected_sql?: unknown; expected_answer?: unknown; answer_type?: unknown };

/** Fills `expected_answer` of every question with an `expected_sql` in `evaluations/` files from the warehouse. */
export function answersFromWarehouse(s: Pick<Services, 'data'>, orgId: string, connectionId: string): SeedTransform {
  return async (path, content) => {
    const doc = path.startsWith('evaluations/') ? (parseYaml(content).value as { questions?: Question[] } | undefined) : undefined;
    if (!Array.isArray(doc?.questions)) return content;
    const { driver } = await openConnection(s.data, orgId, connectionId);
    try {
      for (const q of doc.questions) {
        if (typeof q.expected_sql !== 'string') continue;
        const rows: unknown[][] = [];
        for await (const batch of (await driver.stream(q.expected_sql, { batchSize: 2 })).batches) {
          rows.push(...batch);
          break;
        }
        const answer = rows.length === 1 && rows[0]!.length === 1 ? answerOf(rows[0]![0], q.answer_type) : undefined;
        if (answer !== undefined) q.expected_answer = answer;
      }
    } finally {
      await driver.close();
    }
    return updateYaml(content, doc as Record<string, unknown>);
  };
}

/** A result cell as a suite answer: a day for dates, else a number (cents kept; small values to 6 significant digits). */
function answerOf(cell: unknown, type: unknown): number | string | undefined {
  if (type === 'date') return typeof cell === 'string' ? cell.slice(0, 10) : cell instanceof Date ? cell.toISOString().slice(0, 10) : undefined;
  const n = typeof cell === 'number' ? cell : typeof cell === 'bigint' || typeof cell === 'string' ? Number(cell) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return Number.isInteger(n) || Math.abs(n) >= 1000 ? Math.round(n * 100) / 100 : Number(n.toPrecision(6));
}
