import type { EvalStore } from './tables.ts';

/** Evaluation questions not yet answered, across every run: the evaluation queue's depth, for metrics. */
export async function countPendingQuestions(x: EvalStore): Promise<number> {
  const row = await x.one(x.db.selectFrom('evaluation_results').select((eb) => eb.fn.countAll<number>().as('n')).where('result', '=', 'pending'));
  return row?.n ?? 0;
}
