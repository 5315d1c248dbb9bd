// A public evaluation suite (evaluation YAML kept in the project) run through the evaluation runner as
// a modeler runs it: the suite written into the organization's knowledge, a run on production at the
// runner's concurrency, and per question the runner's result with the first answer of its chat (text,
// table and SQL), for the suite's test to judge against the question's expected_sql. A question's
// family is the first part of its id (`typos.how-many-custmers-do-we-have`).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { call } from './api.ts';
import type { TestApp } from './app.ts';
import type { AgentAnswer } from './demo-questions.ts';

export interface SuiteQuestion {
  id: string;
  question: string;
  expected_answer: number | string;
  answer_type?: string;
  /** The query of the expected answer; absent when the question must be refused. */
  expected_sql?: string;
}

export interface Suite {
  id: string;
  name: string;
  description?: string;
  questions: SuiteQuestion[];
}

export interface AnsweredQuestion {
  question: SuiteQuestion;
  family: string;
  /** The runner's result: pass, fail or error (with its reason). */
  result: string;
  error: string | null;
  answer: AgentAnswer;
}

export const readSuite = (path: string) => parse(readFileSync(path, 'utf8')) as Suite;
export const familyOf = (q: SuiteQuestion) => q.id.split('.')[0]!;

/** The suite with each expected answer a one-value query gives on this warehouse (as the demo seed does). */
export async function answersHere(suite: Suite, rows: (sql: string) => Promise<unknown[][]>): Promise<Suite> {
  const questions = await Promise.all(
    suite.questions.map(async (q) => {
      const r = q.expected_sql ? await rows(q.expected_sql) : [];
      const v = r.length === 1 && r[0]!.length === 1 ? r[0]![0] : undefined;
      if (v === undefined || v === null) return q;
      return { ...q, expected_answer: q.answer_type === 'date' ? String(v).slice(0, 10) : Number(v) };
    }),
  );
  return { ...suite, questions };
}

/** Writes the suite into production, runs it there, and returns every question with its first answer. */
export async function runSuite(t0: TestApp, token: string, suite: Suite): Promise<AnsweredQuestion[]> {
  const created = await call(t0, 'POST', '/api/knowledge/evaluations', { token, body: suite });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const started = await call(t0, 'POST', `/api/evaluations/${suite.id}/runs`, { token, body: { target: { kind: 'production' } } });
  if (started.status !== 202) throw new Error(JSON.stringify(started.body));
  await t0.app.services.evaluations.settled(started.body.id as string);
  const run = await call(t0, 'GET', `/api/evaluation_runs/${started.body.id as string}`, { token });
  const byId = new Map(suite.questions.map((q) => [q.id, q]));
  return Promise.all(
    (run.body.questions as { id: string; result: string; error: string | null; chat_id: string }[]).map(async (r) => {
      const question = byId.get(r.id)!;
      return { question, family: familyOf(question), result: r.result, error: r.error, answer: await firstAnswer(t0, token, r.chat_id) };
    }),
  );
}

interface ChatMessage {
  role: string;
  position: number;
  content: string;
  answer: { sql?: string; tables: { preview?: unknown[][] }[] } | null;
}

/** The first reply of a chat (before any follow-up of the runner), as the question-set judge reads it. */
async function firstAnswer(t0: TestApp, token: string, chatId: string): Promise<AgentAnswer> {
  const page = await call(t0, 'GET', `/api/c2/${encodeURIComponent(chatId)}?include_all=true&pairs=50`, { token });
  if (page.status !== 200) throw new Error(JSON.stringify(page.body));
  const reply = (page.body.messages as ChatMessage[]).sort((a, b) => a.position - b.position).find((m) => m.role === 'assistant');
  return {
    status: 'completed',
    content: reply?.content ?? '',
    tables: (reply?.answer?.tables ?? []).map((t) => ({ rows: t.preview ?? [] })),
    sql: reply?.answer?.sql ? [{ sql: reply.answer.sql }] : [],
  };
}
