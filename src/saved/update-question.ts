// Editing and deleting a saved question. An edit writes a new version; the old ones stay readable.
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../auth/index.ts';
import { checkVisibility, editableQuestion } from './access.ts';
import { chartWithoutData } from './chart-data.ts';
import type { SavedDeps } from './deps.ts';
import { QuestionEditedMeanwhile } from './errors.ts';
import { deleteQuestion, findQuestion, updateQuestion } from './questions-store.ts';
import type { QuestionFields, SavedQuestion } from './schemas.ts';

/**
 * What an edit may change; absent fields keep their value. `version`, when given, is the version the
 * edit was made from: an edit made from an older one is refused rather than silently undoing the
 * versions written since.
 */
export type QuestionEdit = Partial<Omit<QuestionFields, 'knowledge_commit'>> & { version?: number | undefined };

/** Writes the next version of a question the caller may edit; an edit that changes nothing writes none. */
export async function editQuestion(deps: SavedDeps, p: Principal, id: string, edit: QuestionEdit): Promise<SavedQuestion> {
  const q = await editableQuestion(deps, p, id);
  if (edit.version !== undefined && edit.version !== q.version) throw new QuestionEditedMeanwhile();
  if (edit.visibility) checkVisibility(p, edit.visibility, q.visibility);
  // SQL written anew is no longer the answer's: the commit it came from no longer describes it.
  const sqlChanged = (edit.sql !== undefined && edit.sql !== q.sql) || (edit.connection_id !== undefined && edit.connection_id !== q.connection_id);
  if (sqlChanged) await deps.ports.checkStatement(p, { connectionId: edit.connection_id ?? q.connection_id, sql: edit.sql ?? q.sql });
  const fields: QuestionFields = {
    title: edit.title ?? q.title,
    description: edit.description ?? q.description,
    visibility: edit.visibility ?? q.visibility,
    connection_id: edit.connection_id ?? q.connection_id,
    sql: edit.sql ?? q.sql,
    chart: edit.chart === undefined ? q.chart : chartWithoutData(edit.chart),
    knowledge_commit: sqlChanged ? null : q.knowledge_commit,
  };
  const { id: _id, owner_id: _owner, version: _version, source: _source, created_at: _created, updated_at: _updated, ...current } = q;
  if (isDeepStrictEqual(fields, current)) return q;
  if (!(await updateQuestion(deps.store, { id, fromVersion: q.version, fields, editedBy: p.userId, at: deps.clock.now() }))) throw new QuestionEditedMeanwhile();
  return (await findQuestion(deps.store, p.orgId, id))!;
}

/** Deletes a question the caller may edit, with its history. */
export async function removeQuestion(deps: SavedDeps, p: Principal, id: string): Promise<void> {
  await editableQuestion(deps, p, id);
  await deleteQuestion(deps.store, p.orgId, id);
}
