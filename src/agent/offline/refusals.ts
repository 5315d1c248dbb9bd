// Questions outside the offline model's family, and how it says so: causes ("why did revenue
// drop"), the future ("forecast", "will we", "next quarter", a period that has not begun), requests
// to change data ("delete the cancelled orders") and anything it cannot map completely to the
// knowledge. Each refusal says what it can answer instead.
import type { Schema } from './vocabulary.ts';

export type RefusalReason = 'causal' | 'predictive' | 'writes' | 'unmapped' | 'no_knowledge';

export interface Refusal {
  kind: 'refuse';
  reason: RefusalReason;
  detail?: string;
  /** The words left unread, when they are why and the question has a measure: values the data may hold (value-lookup.ts). */
  unread?: string[];
}

/**
 * The paragraph that opens advice for whoever runs Sextant: the web client shows it to admins only
 * (an analyst cannot act on it). Part of the answer text so that the API and the CLI keep it.
 */
export const OPERATOR_NOTE = 'For the operator:';

export const OFFLINE_UNSUPPORTED =
  'The offline model answers counts, sums, averages, medians, minimums and maximums of documented columns and governed metrics, grouped by a column or a period, top or bottom N, with filters on listed values and past periods (two of them compared side by side), joined along documented relationships, charted as asked (bar, line, area, pie or scatter); and lists of a table\'s rows (filtered, newest first, the latest N).' +
  `\n\n${OPERATOR_NOTE} configure an LLM provider (SEXTANT_LLM_PROVIDER=openai or anthropic) to answer other questions.`;

const CAUSAL = /\b(why|what (?:caused|causes|drove|drives|explains)|cause of|causes of|reasons? (?:for|behind|why)|explain|because|due to|impact of|effect of)\b/;
const PREDICTIVE =
  /\b(forecasts?|forecasting|predict(?:ed|ion|s)?|projections?|expect(?:ed)?|estimates?|will|going to|likely|outlook|future|upcoming|next (?:day|week|month|quarter|year)s?|coming (?:days|weeks|months|quarters?|years?))\b/;

// A request that opens with a verb that changes data. Not "remove", "add", "change" or "update":
// "remove the cancelled orders from revenue" narrows a question, "change in revenue" asks one.
const WRITES = /^(?:please |can you |could you )?(delete|drop|truncate|insert|erase|wipe|purge|overwrite|alter)\b/;

export const refuse = (reason: RefusalReason, detail?: string): Refusal => ({ kind: 'refuse', reason, ...(detail ? { detail } : {}) });

/** A refusal for questions about causes or the future, or requests to change data (normalized text), else undefined. */
export function outOfFamily(text: string): Refusal | undefined {
  if (CAUSAL.test(text)) return refuse('causal');
  if (PREDICTIVE.test(text)) return refuse('predictive');
  if (WRITES.test(text)) return refuse('writes');
  return undefined;
}

const WHY: Record<RefusalReason, (detail?: string) => string> = {
  causal: () => 'it asks why something happened, and a query shows what happened, not its causes',
  predictive: () => 'it asks about the future, and the data only holds what already happened',
  writes: () => 'it asks to change data, and Sextant only reads it: every query is read-only',
  unmapped: (detail) => `I could not map all of it to the documented tables and metrics${detail ? `: ${detail}` : ''}`,
  no_knowledge: () => 'no documented table matches it',
};

/** The answer to a refused question: why, what can be asked instead, and how to get more. */
export function refusalText(question: string, r: Refusal, schema: Schema, nowMs: number): string {
  return `I can't answer "${question}" offline: ${WHY[r.reason](r.detail)}. ${examples(schema, new Date(nowMs).getUTCFullYear() - 1)}${OFFLINE_UNSUPPORTED}`;
}

function examples(schema: Schema, lastYear: number): string {
  const metrics = schema.tables.flatMap((t) => (t.metrics ?? []).map((m) => m.name.replace(/_/g, ' ')));
  const unique = [...new Set(metrics)];
  if (unique.length === 0) return '';
  const first = unique[0]!;
  return `The governed metrics I know are ${unique.join(', ')}; you could ask for example "${first} last month" or "${first} by month in ${lastYear}". `;
}
