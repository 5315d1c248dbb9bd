// The offline model: a deterministic planner behind the LlmProvider interface. It makes the calls an
// LLM would (search the knowledge, run the SQL it derives from the documented tables, chart the
// result, answer in words) for a documented family of questions, and says plainly when a question
// needs a real model.
import type { Clock } from '../../clock.ts';
import type { KnowledgeHit, RelationshipDocument, TableDocument } from '../ports.ts';
import type { LlmMessage, LlmProvider, LlmRequest, LlmStreamEvent } from '../providers/types.ts';
import { buildSql, type BuiltQuery } from './build-sql.ts';
import { titleOf } from './titles.ts';
import { isPeriod } from './intent.ts';
import { ranksByChange, type Plan } from './plan.ts';
import { planQuestion } from './plan-question.ts';
import { refusalText, refuse } from './refusals.ts';
import { searchFragments } from './repair.ts';
import { foundReadings, lookUpRequest, withFoundValues, type FoundValue } from './value-lookup.ts';
import type { Schema } from './vocabulary.ts';
import { describeResult, explain, noDataText, summarizeSoFar } from './wording.ts';
import { normalize } from './words.ts';

export { OFFLINE_UNSUPPORTED } from './refusals.ts';

const FEEDBACK_PREFIX = 'Feedback from the user while you were working: ';

/** The embedded model of `npm start` and the tests; `clock` anchors "last month" and "this year". */
export function offlineProvider({ clock, model = 'sextant-offline-1' }: { clock: Clock; model?: string }): LlmProvider {
  return {
    name: 'offline',
    model,
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      const step = nextStep(req, clock.now());
      if (step.kind === 'text') {
        for (const piece of step.text.match(/[^\n]{1,40}\n?|\n/g) ?? []) yield { type: 'text_delta', text: piece };
      } else {
        const id = `call_${req.messages.length}`;
        const args = JSON.stringify(step.args);
        yield { type: 'tool_call_start', id, name: step.name };
        yield { type: 'tool_call_delta', id, argumentsDelta: args };
        yield { type: 'tool_call_end', id, name: step.name, arguments: args };
      }
      yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
      yield { type: 'finish', reason: step.kind === 'text' ? 'stop' : 'tool_calls' };
    },
  };
}

type Step = { kind: 'text'; text: string } | { kind: 'tool'; name: string; args: Record<string, unknown> };

interface ToolResult {
  name: string;
  content: Record<string, unknown>;
}

/** Decides the next move from the conversation so far. */
function nextStep(req: LlmRequest, nowMs: number): Step {
  const { messages } = req;
  const asked = messages.flatMap((m, i) => (m.role === 'user' && !m.content.startsWith(FEEDBACK_PREFIX) && !isInstruction(m.content) ? [i] : []));
  const qIndex = asked.at(-1) ?? -1;
  const question = qIndex >= 0 ? (messages[qIndex] as { content: string }).content : '';
  // The chat's earlier questions, for follow-ups ("and in France?").
  const earlier = asked.slice(0, -1).map((i) => (messages[i] as { content: string }).content);
  const after = messages.slice(qIndex + 1);
  const feedback = after.filter((m): m is Extract<LlmMessage, { role: 'user' }> => m.role === 'user' && m.content.startsWith(FEEDBACK_PREFIX));
  const results = toolResults(after);
  if (req.tools.length === 0) return { kind: 'text', text: summarizeSoFar(question, results) };
  const has = (name: string) => req.tools.some((t) => t.name === name);
  const searches = results.filter((r) => r.name === 'search_knowledge');
  if (searches.length === 0 && has('search_knowledge')) return { kind: 'tool', name: 'search_knowledge', args: { query: searchQuery([...earlier.slice(-2), question].join(' ')), limit: 30 } };

  // Values looked up earlier in the chat stay read: "and by month?" keeps "in Chicago".
  const found = toolResults(messages).flatMap((r) => (r.name === 'look_up_values' ? ((r.content['matches'] as FoundValue[] | undefined) ?? []) : []));
  const schema = withFoundValues(schemaFrom(searches.flatMap(itemsOf)), found);
  // A metric may name a table the question did not (`orders.order_date`): look it up once.
  const missing = searches.length === 1 ? missingTables(schema) : [];
  if (missing.length > 0 && has('search_knowledge')) return { kind: 'tool', name: 'search_knowledge', args: { query: missing.join(' '), limit: 30 } };
  // Feedback refines the question: its words are read together with the question's.
  const fullQuestion = [question, ...feedback.map((f) => f.content.slice(FEEDBACK_PREFIX.length))].join(' ');
  const outcome = planQuestion(fullQuestion, earlier, schema, nowMs);
  if (outcome.kind === 'refuse') {
    // Words the knowledge found so far does not know may be misspelt names of what it did not find:
    // one more search, after the question's and the one for metrics' tables if that was needed.
    const again = (outcome.reason === 'unmapped' || outcome.reason === 'no_knowledge') && has('search_knowledge') && searches.length === 1 + (missingTables(schemaFrom(itemsOf(searches[0]!))).length > 0 ? 1 : 0);
    const fragments = again ? searchFragments(normalize(question), schema) : [];
    // With the question's own words: the search links the tables it returns together by their
    // relationships, so the table a typo names comes with the path to the tables already found.
    if (fragments.length > 0) return { kind: 'tool', name: 'search_knowledge', args: { query: `${fragments.join(' ')} ${searchQuery(question)}`.slice(0, 2000), limit: 30 } };
    const lookUp = outcome.unread && has('look_up_values') ? valueLookUpStep(normalize([...earlier, fullQuestion].join(' ')), outcome.unread, schema, results, has) : undefined;
    if (lookUp) return lookUp;
    return { kind: 'text', text: refusalText(question, outcome, schema, nowMs) };
  }
  // How misspelt words and values found in the data were read comes first: the answer is to that reading.
  const filtered = outcome.plan.filters.flatMap((f) => (f.kind === 'values' ? [{ column: f.ref.column.name, values: f.values }] : []));
  const read = [...outcome.readings, ...foundReadings(found, filtered)].map((r) => `${r}\n`).join('');
  if (outcome.kind === 'no_data') return { kind: 'text', text: `${read}${noDataText(titleOf(outcome.plan), outcome.period, outcome.coverage)}\n\n${explain(outcome.plan, schema, undefined)}` };
  const built = buildSql(outcome.plan);
  if (!built) return { kind: 'text', text: refusalText(question, refuse('unmapped', 'a metric it needs cannot be written over the documented tables'), schema, nowMs) };
  // Only results since the last feedback count: feedback asks for a new query.
  const lastFeedback = lastIndex(after, (m) => m.role === 'user' && m.content.startsWith(FEEDBACK_PREFIX));
  const current = toolResults(after.slice(lastFeedback + 1));
  const sqlResult = [...current].reverse().find((r) => r.name === 'run_sql');
  const formats = resultFormats(built);
  if (!sqlResult) return { kind: 'tool', name: 'run_sql', args: { connection_id: built.connectionId, sql: built.sql, title: built.title, ...formats } };
  const error = sqlResult.content['error'] as { message?: string } | undefined;
  if (error) return { kind: 'text', text: `The query failed: ${error.message ?? 'unknown error'}` };
  const chart = current.find((r) => r.name === 'make_chart');
  const dfKey = String(sqlResult.content['df_key']);
  const rows = (sqlResult.content['rows'] as unknown[][] | undefined) ?? [];
  if (!chart && has('make_chart') && wantsChart(built, rows)) return { kind: 'tool', name: 'make_chart', args: chartArgs(outcome.plan, built, dfKey) };
  return { kind: 'text', text: `${read}${describeResult(built, sqlResult.content)}\n\n${explain(outcome.plan, schema, outcome.partial)}` };
}

/**
 * Words the knowledge does not know may be values it does not list ("revenue in Munich"): looked up
 * once, in the text columns of the tables found and of the neighbours of the one with the most
 * metrics (a city is the customers', not the orders' the question found), which describe_table names
 * and one search brings.
 */
function valueLookUpStep(text: string, unread: string[], schema: Schema, results: ToolResult[], has: (tool: string) => boolean): Step | undefined {
  if (results.some((r) => r.name === 'look_up_values')) return undefined;
  // The table with the most governed metrics, where facts are: its neighbours are what they are of.
  const first = [...schema.tables].sort((a, b) => (b.metrics?.length ?? 0) - (a.metrics?.length ?? 0))[0];
  const described = results.findIndex((r) => r.name === 'describe_table');
  if (described < 0 && first && has('describe_table')) return { kind: 'tool', name: 'describe_table', args: { connection_id: first.connection, table: `${first.schema}.${first.name}` } };
  const known = new Set(schema.tables.map((t) => t.name));
  const relationships = (results[described]?.content['relationships'] as RelationshipDocument[] | undefined) ?? [];
  const neighbours = [...new Set(relationships.flatMap((r) => [r.from.table, r.to.table]))].filter((t) => !known.has(t));
  const searchedSince = results.slice(described + 1).some((r) => r.name === 'search_knowledge');
  // With the first table's name: the search adds the relationships between the tables it returns.
  if (first && neighbours.length > 0 && !searchedSince) return { kind: 'tool', name: 'search_knowledge', args: { query: [first.name, ...neighbours].join(' '), limit: 30 } };
  const request = first && lookUpRequest(text, unread, schema, first);
  return request ? { kind: 'tool', name: 'look_up_values', args: request } : undefined;
}

/** The question's words with their singular forms: documentation says "country" where people ask about "countries". */
export function searchQuery(text: string): string {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 2);
  const singular = words.map((w) => w.replace(/ies$/, 'y').replace(/(?<!s)s$/, '').replace(/(?<=\w{4})(ed|ing)$/, ''));
  return [...new Set([...words, ...singular])].join(' ').slice(0, 2000);
}

const itemsOf = (r: ToolResult) => (r.content['items'] as KnowledgeHit[] | undefined) ?? [];

/**
 * Tables the search did not return that documented metrics read (`table.column`), or that a
 * relationship it returned reaches from a table it returned: "customers who bought Electronics"
 * finds customers, products and the relationships of order_items, the table between them.
 */
export function missingTables(schema: Schema): string[] {
  const known = new Set(schema.tables.map((t) => t.name.toLowerCase()));
  const named = schema.tables.flatMap((t) => (t.metrics ?? []).flatMap((m) => [m.expression, m.filter ?? '', m.time_column ?? '']));
  const tables = named.flatMap((text) => [...text.matchAll(/\b([A-Za-z_]\w*)\.[A-Za-z_]\w*/g)].map((m) => m[1]!.toLowerCase()));
  const reached = schema.relationships.flatMap((r) => {
    const [a, b] = [r.from.table.toLowerCase(), r.to.table.toLowerCase()];
    return known.has(a) ? [b] : known.has(b) ? [a] : [];
  });
  return [...new Set([...tables, ...reached])].filter((t) => !known.has(t));
}

/**
 * The value's format for the table as for the text (a share reads 7.8%, an average daily revenue in
 * USD); a change from the period before in the value's format, its fraction a percentage.
 */
function resultFormats(built: BuiltQuery): { formats?: Record<string, string> } {
  const steps = built.steps ? { [`${built.valueColumn}_change_pct`]: 'percent', ...(built.format ? { [`${built.valueColumn}_change`]: built.format } : {}) } : {};
  const formats = { ...(built.format && built.valueColumn ? { [built.valueColumn]: built.format } : {}), ...steps };
  return Object.keys(formats).length > 0 ? { formats } : {};
}

const wantsChart = (built: BuiltQuery, rows: unknown[][]) => built.labelColumn !== undefined && rows.length >= 2;

/**
 * The x axis and the series of the chart. Grouped twice ("monthly revenue by country"), time goes
 * along x and the other grouping is the series; drawn along one axis, twelve months of each country
 * would stack on the country's one point. Otherwise the first grouping, with no series.
 */
function chartAxes(plan: Plan, built: BuiltQuery): { x: string | undefined; color?: string } {
  const nameOf = (d: Plan['dimensions'][number]) => (d.kind === 'bucket' ? d.bucket : d.kind === 'column' ? d.ref.column.name : d.label.column.name);
  const [first, second] = plan.dimensions;
  if (!first || !second || plan.dimensions.length !== 2) return { x: built.labelColumn };
  const [x, series] = second.kind === 'bucket' && isPeriod(second.bucket) && !(first.kind === 'bucket' && isPeriod(first.bucket)) ? [second, first] : [first, second];
  return { x: nameOf(x), color: nameOf(series) };
}

/** make_chart's arguments for a result: its axes and mark, as asked or as usual. */
function chartArgs(plan: Plan, built: BuiltQuery, dfKey: string): Record<string, unknown> {
  const ranked = rankedGroup(plan);
  // Groups ranked by their change are drawn by what ranks them: each group's change.
  const [axes, y] = ranked ? [{ x: ranked }, `${built.valueColumn}_change`] : [chartAxes(plan, built), built.valueColumn];
  return { df_key: dfKey, type: plan.chart?.mark ?? usualMark(plan, built), ...axes, y, title: built.title };
}

/** The group's column when a plan ranks groups by their change ("top 3 categories by revenue growth"). */
function rankedGroup(plan: Plan): string | undefined {
  if (!ranksByChange(plan)) return undefined;
  const group = plan.dimensions.find((d) => d.kind !== 'bucket');
  return group?.kind === 'column' ? group.ref.column.name : group?.kind === 'label' ? group.label.column.name : undefined;
}

/** The chart's mark when the question names none: bars side by side for periods compared or ranked, a line over time, else bars. */
const usualMark = (plan: Plan, built: BuiltQuery) => (plan.filters.some((f) => f.kind === 'period' && f.period.compare) || !built.timeSeries || plan.order !== 'time' ? 'bar' : 'line');

const isInstruction = (text: string) => text.startsWith('The user asked you to stop') || text.startsWith('You reached the step limit');

function lastIndex<T>(xs: T[], f: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i]!)) return i;
  return -1;
}

/**
 * Each tool message parsed once: every turn reads all the results so far again, and a search's are
 * large (a third of a question's planning CPU went to parsing them again). Nothing here changes them.
 */
const parsedResults = new WeakMap<LlmMessage, ToolResult>();

function toolResults(messages: LlmMessage[]): ToolResult[] {
  return messages
    .filter((m): m is Extract<LlmMessage, { role: 'tool' }> => m.role === 'tool')
    .map((m) => {
      let r = parsedResults.get(m);
      if (!r) {
        try {
          r = { name: m.name, content: JSON.parse(m.content) as Record<string, unknown> };
        } catch {
          r = { name: m.name, content: {} };
        }
        parsedResults.set(m, r);
      }
      return r;
    });
}

export function schemaFrom(items: KnowledgeHit[]): Schema {
  const tables = new Map<string, TableDocument>();
  const relationships = new Map<string, RelationshipDocument>();
  const paths: Schema['paths'] = new Map();
  for (const i of items) {
    if (i.table) tables.set(`${i.table.connection}.${i.table.schema}.${i.table.name}`, i.table);
    if (i.relationship) relationships.set(i.relationship.id, i.relationship);
  }
  for (const i of items) {
    const doc = i.table ? tables.get(`${i.table.connection}.${i.table.schema}.${i.table.name}`) : i.relationship ? relationships.get(i.relationship.id) : undefined;
    if (doc) paths.set(doc, i.path);
  }
  return { tables: [...tables.values()], relationships: [...relationships.values()], paths };
}
