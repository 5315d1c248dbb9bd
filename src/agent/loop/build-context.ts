// The model's context for one question: who asks (name, Background, memories), what the organization
// documented that is relevant (ranked search at the environment's commit), the app editor preview
// when one was sent, and today's date from the clock.
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
    'You are Sextant, a data analyst. Answer questions about the organization\'s data by searching its knowledge, running read-only SQL with run_sql, and charting results with make_chart. Use only documented tables. When a tool returns an error, fix the call and try again. Answer concisely, with the numbers.',
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
    const cols = h.table.columns.map((c) => `${c.name} ${c.type ?? ''}${c.synonyms?.length ? ` (also: ${c.synonyms.join(', ')})` : ''}${c.description ? ` - ${c.description}` : ''}`);
    return `- table ${h.table.connection}:${h.table.schema}.${h.table.name}: ${h.table.description ?? ''}\n    ${cols.join('\n    ')}`;
  }
  if (h.relationship) {
    const r = h.relationship;
    return `- relationship ${r.from.table}.${r.from.column} -> ${r.to.table}.${r.to.column} (${r.kind})`;
  }
  return `- ${h.kind} ${h.title}: ${h.text.slice(0, 500)}`;
}
