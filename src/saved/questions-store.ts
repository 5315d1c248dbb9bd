// SQL of the saved_questions and saved_question_versions tables. A write changes the question row
// and copies it into the versions in one batch, so the history always ends at the current version.
import { sql } from 'kysely';
import { afterKeyset, containsText, type Executor, type KeysetAfter } from '../store/index.ts';
import { chartWithoutData } from './chart-data.ts';
import type { ChartSpec, QuestionFields, QuestionSource, SavedQuestion, SavedQuestionVersion, Visibility } from './schemas.ts';

interface QuestionRow {
  id: string;
  org_id: string;
  owner_id: string;
  visibility: Visibility;
  version: number;
  title: string;
  description: string;
  connection_id: string;
  sql: string;
  chart: string | null;
  knowledge_commit: string | null;
  source: string | null;
  created_at: number;
  updated_at: number;
}

interface VersionRow extends Omit<QuestionRow, 'id' | 'org_id' | 'owner_id' | 'source' | 'created_at' | 'updated_at'> {
  edited_by: string | null;
  edited_at: number;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();
const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

function toQuestion(r: QuestionRow): SavedQuestion {
  return {
    id: r.id,
    owner_id: r.owner_id,
    visibility: r.visibility,
    version: Number(r.version),
    title: r.title,
    description: r.description,
    connection_id: r.connection_id,
    sql: r.sql,
    chart: chartWithoutData(json<ChartSpec>(r.chart)),
    knowledge_commit: r.knowledge_commit,
    source: json<QuestionSource>(r.source),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** Copies the question's current row into its history. */
const copyToVersions = (id: string, editedBy: string, at: number) =>
  sql`INSERT INTO saved_question_versions (question_id, version, visibility, title, description, connection_id, sql, chart, knowledge_commit, edited_by, edited_at)
    SELECT id, version, visibility, title, description, connection_id, sql, chart, knowledge_commit, ${editedBy}, ${at} FROM saved_questions WHERE id = ${id}`;

/** Stores a new question as version 1. */
export async function insertQuestion(x: Executor, q: { id: string; orgId: string; ownerId: string; at: number; fields: QuestionFields; source: QuestionSource | null }): Promise<void> {
  const f = q.fields;
  await x.batch([
    sql`INSERT INTO saved_questions (id, org_id, owner_id, visibility, version, title, description, connection_id, sql, chart, knowledge_commit, source, created_at, updated_at)
      VALUES (${q.id}, ${q.orgId}, ${q.ownerId}, ${f.visibility}, 1, ${f.title}, ${f.description}, ${f.connection_id}, ${f.sql}, ${chartText(f.chart)}, ${f.knowledge_commit},
        ${q.source ? JSON.stringify(q.source) : null}, ${q.at}, ${q.at})`,
    copyToVersions(q.id, q.ownerId, q.at),
  ]);
}

const chartText = (chart: ChartSpec | null) => (chart === null ? null : JSON.stringify(chartWithoutData(chart)));

/** A question of the organization, or undefined. */
export async function findQuestion(x: Executor, orgId: string, id: string): Promise<SavedQuestion | undefined> {
  const row = await x.one(sql<QuestionRow>`SELECT * FROM saved_questions WHERE org_id = ${orgId} AND id = ${id}`);
  return row && toQuestion(row);
}

/** The organization's questions of `ids` that exist (several at once: a dashboard's tiles), in no particular order. */
export async function findQuestions(x: Executor, orgId: string, ids: readonly string[]): Promise<SavedQuestion[]> {
  if (ids.length === 0) return [];
  const rows = await x.all(sql<QuestionRow>`SELECT * FROM saved_questions WHERE org_id = ${orgId} AND id IN (${sql.join([...new Set(ids)])})`);
  return rows.map(toQuestion);
}

/** What a page of the list holds: the questions whose title or description contains `q`, `limit` of them after `after`, each when given. */
export interface ListQuery {
  q?: string | undefined;
  after?: KeysetAfter | undefined;
  limit?: number | undefined;
}

/** The organization's questions and the user's private ones, last edited first. */
export async function listQuestions(x: Executor, orgId: string, userId: string, page: ListQuery = {}): Promise<SavedQuestion[]> {
  const search = page.q === undefined ? sql`` : sql`AND (${containsText(x, sql.ref('title'), page.q)} OR ${containsText(x, sql.ref('description'), page.q)})`;
  const after = afterKeyset(page.after, 'updated_at', 'id');
  const limit = page.limit === undefined ? sql`` : sql`LIMIT ${page.limit}`;
  const rows = await x.all(sql<QuestionRow>`SELECT * FROM saved_questions WHERE org_id = ${orgId} AND (visibility = 'organization' OR owner_id = ${userId}) ${search} ${after}
    ORDER BY updated_at DESC, id DESC ${limit}`);
  return rows.map(toQuestion);
}

/** The organization's questions on a connection, titled where the organization sees them (private ones are counted only). */
export async function questionsOnConnection(x: Executor, orgId: string, connectionId: string): Promise<{ shared: { id: string; title: string }[]; private: number }> {
  const rows = await x.all(sql<{ id: string; title: string; visibility: Visibility }>`SELECT id, title, visibility FROM saved_questions WHERE org_id = ${orgId} AND connection_id = ${connectionId} ORDER BY title, id`);
  return { shared: rows.filter((r) => r.visibility === 'organization').map(({ id, title }) => ({ id, title })), private: rows.filter((r) => r.visibility === 'private').length };
}

/** Writes the next version if the question is still at `fromVersion`; false when someone else wrote first. */
export async function updateQuestion(x: Executor, u: { id: string; fromVersion: number; fields: QuestionFields; editedBy: string; at: number }): Promise<boolean> {
  const f = u.fields;
  const res = await x.batch(
    [
      sql`UPDATE saved_questions SET version = version + 1, visibility = ${f.visibility}, title = ${f.title}, description = ${f.description}, connection_id = ${f.connection_id},
        sql = ${f.sql}, chart = ${chartText(f.chart)}, knowledge_commit = ${f.knowledge_commit}, updated_at = ${u.at}
        WHERE id = ${u.id} AND version = ${u.fromVersion}`,
      copyToVersions(u.id, u.editedBy, u.at),
    ],
    { require: [0] },
  );
  return res.ok;
}

/** Deletes a question with its history. */
export async function deleteQuestion(x: Executor, orgId: string, id: string): Promise<void> {
  await x.run(sql`DELETE FROM saved_questions WHERE org_id = ${orgId} AND id = ${id}`);
}

/** Every version of a question, newest first. */
export async function listVersions(x: Executor, id: string): Promise<SavedQuestionVersion[]> {
  const rows = await x.all(sql<VersionRow>`SELECT version, visibility, title, description, connection_id, sql, chart, knowledge_commit, edited_by, edited_at
    FROM saved_question_versions WHERE question_id = ${id} ORDER BY version DESC`);
  return rows.map((r) => ({
    version: Number(r.version),
    visibility: r.visibility,
    title: r.title,
    description: r.description,
    connection_id: r.connection_id,
    sql: r.sql,
    chart: chartWithoutData(json<ChartSpec>(r.chart)),
    knowledge_commit: r.knowledge_commit,
    edited_by: r.edited_by,
    edited_at: iso(r.edited_at),
  }));
}
