// SQL of the dbt_imports table: each import's summary, kept with its environment.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';
import type { ImportSummary } from './summary.ts';

interface ImportRow {
  id: string;
  summary: string;
  created_at: number;
  created_by: string | null;
}

/** Records an import's summary. */
export async function saveImport(x: Executor, a: { orgId: string; userId: string; at: number; summary: ImportSummary }): Promise<string> {
  const id = `imp_${randomBytes(8).toString('hex')}`;
  const s = a.summary;
  await x.run(sql`INSERT INTO dbt_imports (id, org_id, environment_id, connection_id, project, generated_at, commit_id, summary, created_by, created_at)
    VALUES (${id}, ${a.orgId}, ${s.environment_id}, ${s.connection_id}, ${s.project}, ${s.generated_at}, ${s.commit}, ${JSON.stringify(s)}, ${a.userId}, ${a.at})`);
  return id;
}

/** The imports into an environment, newest first. */
export async function listImports(x: Executor, orgId: string, environmentId: string): Promise<{ id: string; created_at: string; created_by: string | null; summary: ImportSummary }[]> {
  const rows = await x.all(sql<ImportRow>`SELECT id, summary, created_at, created_by FROM dbt_imports WHERE org_id = ${orgId} AND environment_id = ${environmentId} ORDER BY created_at DESC, id DESC`);
  return rows.map((r) => ({ id: r.id, created_at: new Date(Number(r.created_at)).toISOString(), created_by: r.created_by, summary: JSON.parse(r.summary) as ImportSummary }));
}
