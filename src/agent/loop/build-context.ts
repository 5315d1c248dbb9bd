// The model's context for one question: who asks (name, Background, memories), what the organization
// documented that is relevant (ranked search at the environment's commit: tables with their governed
// metrics and data coverage, notes...), the app editor preview when one was sent, and today's date.
import type { Principal } from '../../auth/index.ts';
import type { AgentPorts, KnowledgeHit } from '../ports.ts';
import { noteKnowledge, type RunState } from '../tools/index.ts';

export interface ContextInput {
  principal: Principal;
  environmentId: string | undefined;
  environmentName: string | undefined;
  question: string;
  /** The app editor's state as the client sent it. */
  appPreview?: unknown;
  nowMs: number;
}

/** How the model works; governed metrics are the organization's definitions and win over a column's plain sum. */
export const SYSTEM_PROMPT = [
  "You are Sextant, a data analyst. Answer questions about the organization's data by searching its knowledge, running read-only SQL with run_sql, and charting results with make_chart. Use only documented tables. When a tool returns an error, fix the call and try again. Answer concisely, with the numbers.",
  'Governed metrics are the organization\'s definitions. When a question asks for a metric by its name or a synonym (revenue, sales...), compute it with exactly its expression, add its filter to the WHERE clause (joining the table a `table.column` names), and apply periods to its time column; never sum a column yourself instead. Pick the metric whose table reaches the columns you group or filter by without repeating rows.',
  'When a period lies outside a table\'s data coverage, say there is no data for that period and give the coverage; never report 0 for it. Do not answer questions about causes ("why") or the future (forecasts, next quarter) with a number: say what the data shows instead. Never round values in SQL; round only when you write the answer.',
  'End the answer with one line naming the metric you used (if any) and the knowledge items (file paths) your answer relied on.',
].join('\n');

/** Items of retrieved knowledge put into the system prompt. */
export const CONTEXT_ITEMS = 8;
const PREVIEW_CHARS = 8_000;

/** Builds the system prompt and records the knowledge it used on the run state. */
export async function buildContext(ports: AgentPorts, state: RunState, input: ContextInput): Promise<string> {
  const [profile, found] = await Promise.all([
    ports.profiles.profile(input.principal),
    ports.knowledge.search(input.principal, input.environmentId, input.question, CONTEXT_ITEMS),
  ]);
  noteKnowledge(state, found.commit, found.items);
  const parts = [
    SYSTEM_PROMPT,
    `Today is ${new Date(input.nowMs).toISOString().slice(0, 10)}.`,
    input.environmentName ? `You work in the environment "${input.environmentName}" (not production).` : '',
    profile.name || profile.background ? `The user: ${profile.name}${profile.background ? `. Background: ${profile.background}` : ''}` : '',
    profile.memories.length > 0 ? `What the user asked you to remember:\n${profile.memories.map((m) => `- ${m}`).join('\n')}` : '',
    found.items.length > 0 ? `Relevant knowledge (commit ${found.commit}):\n${found.items.map(describeHit).join('\n')}` : '',
    input.appPreview !== undefined ? `The app editor currently shows:\n${JSON.stringify(input.appPreview).slice(0, PREVIEW_CHARS)}` : '',
  ];
  return parts.filter(Boolean).join('\n\n');
}

function describeHit(h: KnowledgeHit): string {
  if (h.table) {
    const t = h.table;
    const cols = t.columns.map((c) => `${c.name} ${c.type ?? ''}${c.synonyms?.length ? ` (also: ${c.synonyms.join(', ')})` : ''}${c.description ? ` - ${c.description}` : ''}`);
    const metrics = (t.metrics ?? []).map(
      (m) =>
        `metric ${m.name} = ${m.expression}${m.filter ? ` WHERE ${m.filter}` : ''}${m.time_column ? `; periods on ${m.time_column}` : ''}${m.format ? `; shown as ${m.format}` : ''}${m.synonyms?.length ? ` (also: ${m.synonyms.join(', ')})` : ''} - ${m.description}`,
    );
    const coverage = t.coverage ? [`data coverage: ${t.coverage.column ? `${t.coverage.column} ` : ''}from ${t.coverage.first} to ${t.coverage.last}`] : [];
    const upstream = t.upstream ? [`built from (lineage): ${t.upstream.join(', ')}`] : [];
    return `- table ${t.connection}:${t.schema}.${t.name} (${h.path}): ${t.description ?? ''}\n    ${[...cols, ...metrics, ...coverage, ...upstream].join('\n    ')}`;
  }
  if (h.relationship) {
    const r = h.relationship;
    return `- relationship ${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column} (${r.kind}; ${h.path})`;
  }
  return `- ${h.kind} ${h.title} (${h.path}): ${h.text.slice(0, 500)}`;
}
