// Saved questions: list, create (from SQL or from an answer's table), read, edit (a new version
// each time), delete, history, and run (again, as the viewer, through the governed query path).
import { z } from 'zod';
import { ChartSpec, createQuestion, editQuestion, questionVersions, QuestionRun, removeQuestion, runQuestion, SavedQuestion, savedQuestion, savedQuestions, SavedQuestionVersion, Visibility } from '../../saved/index.ts';
import { clientSignal } from '../client-signal.ts';
import { route } from '../route.ts';
import { NextCursor, searchedPageQuery } from '../searched-page.ts';
import { Title } from '../title-field.ts';
import type { Services } from '../../compose/services.ts';

const Id = z.object({ id: z.string().min(1).max(100) });
const Chart = ChartSpec.describe('A Vega-Lite spec');
const Description = z.string().max(5000);
const Sql = z.string().min(1).max(100_000);
const ConnectionId = z.string().min(1).max(100);

const CreateBody = z
  .object({
    title: Title,
    description: Description.optional(),
    visibility: Visibility.optional().describe('Default private; organization needs an admin or modeler'),
    connection_id: ConnectionId.optional(),
    sql: Sql.optional(),
    chart: Chart.nullable().optional(),
    chat_id: z.string().min(1).max(200).optional().describe("Save an answer's table instead of SQL: the chat, then df_key or message_uuid (default: its latest answer)"),
    message_uuid: z.string().min(1).max(200).optional(),
    df_key: z.string().min(1).max(200).optional(),
  })
  .refine((b) => b.chat_id !== undefined || b.sql !== undefined, { message: 'Field required', path: ['sql'] })
  .refine((b) => b.chat_id !== undefined || b.connection_id !== undefined, { message: 'Field required', path: ['connection_id'] });

type CreateBody = z.output<typeof CreateBody>;

/** The request as the domain takes it: hand-written SQL, or an answer to save. */
function newQuestion(b: CreateBody) {
  const common = { title: b.title, description: b.description, visibility: b.visibility, chart: b.chart ?? undefined };
  if (b.chat_id === undefined) return { ...common, connection_id: b.connection_id!, sql: b.sql! };
  const at = b.df_key ? { dfKey: b.df_key } : b.message_uuid ? { messageUuid: b.message_uuid } : { latest: true as const };
  return { ...common, from: { chat_id: b.chat_id, ...at } };
}

/** Saved-question routes. */
export function savedQuestionRoutes(s: Services) {
  const tags = ['saved questions'];
  return [
    route({
      method: 'GET',
      path: '/api/saved_questions',
      operationId: 'list_saved_questions',
      summary: "The organization's saved questions and the caller's private ones, last edited first",
      tags,
      auth: 'user',
      query: searchedPageQuery('questions'),
      response: z.object({ questions: z.array(SavedQuestion), next_cursor: NextCursor }),
      handler: ({ principal, query }) => savedQuestions(s.saved, principal, query),
    }),
    route({
      method: 'POST',
      path: '/api/saved_questions',
      operationId: 'create_saved_question',
      summary: "Saves a question from SQL on a connection, or from an answer's table (its SQL, chart and knowledge commit)",
      description: 'Regular users save private questions; admins and modelers may also publish to the organization (403 otherwise). Another organization\'s connection or a chat the caller may not read answers 404. SQL written by hand passes the SQL guard as it is saved (one read-only statement in the connection\'s dialect; 400 QUERY_REFUSED otherwise, nothing saved); which tables it may read and their row filters are checked at each run, as the viewer.',
      tags,
      auth: 'user',
      body: CreateBody,
      status: 201,
      response: SavedQuestion,
      errors: { 400: 'QUERY_REFUSED: the SQL guard refuses the statement (`data.reason` says why)', 403: 'Publishing to the organization needs an admin or modeler', 404: 'Connection, chat or answer not found' },
      handler: ({ principal, body }) => createQuestion(s.saved, principal, newQuestion(body)),
    }),
    route({
      method: 'GET',
      path: '/api/saved_questions/{id}',
      operationId: 'get_saved_question',
      summary: 'One saved question (another user\'s private question answers 404)',
      tags,
      auth: 'user',
      params: Id,
      response: SavedQuestion,
      errors: { 404: 'Saved question not found' },
      handler: ({ principal, params }) => savedQuestion(s.saved, principal, params.id),
    }),
    route({
      method: 'PATCH',
      path: '/api/saved_questions/{id}',
      operationId: 'update_saved_question',
      summary: 'Edits a saved question (owner, or an admin for an organization question); every edit is kept as a version',
      description: 'Changing the SQL or the connection clears the knowledge commit: the SQL is no longer the answer\'s, and it passes the SQL guard again (400 QUERY_REFUSED, no version written). An edit that changes nothing writes no version. Send `version` (the version read) so that an edit made over someone else\'s newer one answers 409 instead of undoing it.',
      tags,
      auth: 'user',
      params: Id,
      body: z.object({
        title: Title.optional(),
        description: Description.optional(),
        visibility: Visibility.optional(),
        connection_id: ConnectionId.optional(),
        sql: Sql.optional(),
        chart: Chart.nullable().optional(),
        version: z.number().int().min(1).optional().describe('The version the edit was made from (as read); 409 when the question was edited since'),
      }),
      response: SavedQuestion,
      errors: { 400: 'QUERY_REFUSED: the SQL guard refuses the new statement', 403: 'Not the owner (nor an admin), or publishing without the role', 404: 'Saved question not found', 409: 'Edited since the version the edit was made from' },
      handler: ({ principal, params, body }) => editQuestion(s.saved, principal, params.id, body),
    }),
    route({
      method: 'DELETE',
      path: '/api/saved_questions/{id}',
      operationId: 'delete_saved_question',
      summary: 'Deletes a saved question and its history (owner, or an admin for an organization question)',
      tags,
      auth: 'user',
      params: Id,
      response: z.object({ deleted: z.literal(true) }),
      errors: { 403: 'Not the owner nor an admin', 404: 'Saved question not found' },
      handler: async ({ principal, params }) => {
        await removeQuestion(s.saved, principal, params.id);
        return { deleted: true as const };
      },
    }),
    route({
      method: 'GET',
      path: '/api/saved_questions/{id}/versions',
      operationId: 'list_saved_question_versions',
      summary: 'Every version of a saved question, newest first',
      tags,
      auth: 'user',
      params: Id,
      response: z.object({ versions: z.array(SavedQuestionVersion) }),
      errors: { 404: 'Saved question not found' },
      handler: async ({ principal, params }) => ({ versions: await questionVersions(s.saved, principal, params.id) }),
    }),
    route({
      method: 'POST',
      path: '/api/saved_questions/{id}/run',
      operationId: 'run_saved_question',
      summary: "Runs the question's SQL again under the caller's permissions and row-level security, with the time the data was read",
      description: 'The same guard, governed-source check, row filters and row limit as POST /api/execute_query, with the current knowledge: a row filter added since the question was saved applies to it.',
      tags,
      auth: 'user',
      params: Id,
      response: QuestionRun,
      errors: { 400: 'Query refused by the guard', 404: 'Saved question not found' },
      handler: ({ principal, params, environmentId, ctx }) => runQuestion(s.saved, principal, params.id, { environmentId, signal: clientSignal(ctx) }),
    }),
  ];
}
