// The saved-question tables give the same answers on SQLite and PostgreSQL: what is listed to whom,
// versions written with every edit, a stale edit refused, and the history gone with the question.
import { sql } from 'kysely';
import { deleteQuestion, findQuestion, findQuestions, insertQuestion, listQuestions, listVersions, updateQuestion } from '../../src/saved/questions-store.ts';
import type { QuestionFields } from '../../src/saved/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const fields = (title: string, visibility: QuestionFields['visibility'] = 'private'): QuestionFields => ({
  title,
  description: '',
  visibility,
  connection_id: 'wh',
  sql: 'SELECT 1',
  chart: { mark: 'bar' },
  knowledge_commit: 'abc',
});

dialectTest('questions are listed to their owner or the organization, edited into versions, and deleted with their history', async (t, { x }) => {
  for (const org of ['acme', 'other']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  for (const u of ['u1', 'u2']) await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${u}, ${`${u}@example.com`}, 0)`);
  await insertQuestion(x, { id: 'q1', orgId: 'acme', ownerId: 'u1', at: 1000, fields: fields('Mine'), source: { chat_id: 'c', message_uuid: 'm', df_key: null } });
  await insertQuestion(x, { id: 'q2', orgId: 'acme', ownerId: 'u2', at: 2000, fields: fields('Shared', 'organization'), source: null });
  await insertQuestion(x, { id: 'q3', orgId: 'acme', ownerId: 'u2', at: 3000, fields: fields('Theirs'), source: null });
  await insertQuestion(x, { id: 'q4', orgId: 'other', ownerId: 'u1', at: 4000, fields: fields('Elsewhere', 'organization'), source: null });
  t.deepEqual((await listQuestions(x, 'acme', 'u1')).map((q) => q.id), ['q2', 'q1']);
  t.deepEqual((await listQuestions(x, 'acme', 'u2')).map((q) => q.id), ['q3', 'q2']);
  t.is(await findQuestion(x, 'acme', 'q4'), undefined, 'another organization\'s');
  t.like(await findQuestion(x, 'acme', 'q1'), { version: 1, chart: { mark: 'bar' }, source: { chat_id: 'c', message_uuid: 'm', df_key: null }, created_at: new Date(1000).toISOString() });
  // Several at once (a dashboard's tiles): the organization's that exist, each once, private ones included (access is the caller's to check).
  const many = await findQuestions(x, 'acme', ['q3', 'q1', 'q4', 'missing', 'q1']);
  t.deepEqual(many.map((q) => q.id).sort(), ['q1', 'q3']);
  t.deepEqual(many.find((q) => q.id === 'q1'), await findQuestion(x, 'acme', 'q1'), 'the same question as read alone');
  t.deepEqual(await findQuestions(x, 'acme', []), []);

  t.true(await updateQuestion(x, { id: 'q1', fromVersion: 1, fields: { ...fields('Renamed'), chart: null, knowledge_commit: null }, editedBy: 'u2', at: 5000 }));
  t.false(await updateQuestion(x, { id: 'q1', fromVersion: 1, fields: fields('Stale'), editedBy: 'u1', at: 6000 }), 'written from an old version');
  t.like(await findQuestion(x, 'acme', 'q1'), { version: 2, title: 'Renamed', chart: null, knowledge_commit: null, updated_at: new Date(5000).toISOString() });
  const versions = await listVersions(x, 'q1');
  t.deepEqual(versions.map((v) => [v.version, v.title, v.edited_by, v.chart]), [[2, 'Renamed', 'u2', null], [1, 'Mine', 'u1', { mark: 'bar' }]]);
  t.deepEqual((await listQuestions(x, 'acme', 'u1')).map((q) => q.id), ['q1', 'q2'], 'last edited first');

  await deleteQuestion(x, 'other', 'q1');
  t.truthy(await findQuestion(x, 'acme', 'q1'), 'not deleted from another organization');
  await deleteQuestion(x, 'acme', 'q1');
  t.is(await findQuestion(x, 'acme', 'q1'), undefined);
  t.deepEqual(await listVersions(x, 'q1'), []);
});

dialectTest('a search finds the questions whose title or description contains the text, in any ASCII case, wildcards as written', async (t, { x }) => {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'acme', 0)`);
  for (const u of ['u1', 'u2']) await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${u}, ${`${u}@example.com`}, 0)`);
  const question = (title: string, description = '', visibility: QuestionFields['visibility'] = 'organization') => ({ ...fields(title, visibility), description });
  await insertQuestion(x, { id: 'q1', orgId: 'acme', ownerId: 'u1', at: 1000, fields: question('Revenue by country'), source: null });
  await insertQuestion(x, { id: 'q2', orgId: 'acme', ownerId: 'u1', at: 2000, fields: question('Orders', 'Counts every REVENUE-bearing order'), source: null });
  await insertQuestion(x, { id: 'q3', orgId: 'acme', ownerId: 'u2', at: 3000, fields: question('Private revenue', '', 'private'), source: null });
  await insertQuestion(x, { id: 'q4', orgId: 'acme', ownerId: 'u1', at: 4000, fields: question('100% of_plan'), source: null });
  const found = async (q: string) => (await listQuestions(x, 'acme', 'u1', { q })).map((r) => r.id);
  t.deepEqual(await found('revenue'), ['q2', 'q1'], 'title or description, last edited first; another user\'s private question is not listed');
  t.deepEqual(await found('COUNTRY'), ['q1']);
  t.deepEqual(await found('%'), ['q4'], 'a % is a percent sign, not a wildcard');
  t.deepEqual(await found('0_p'), [], 'an _ is an underscore, not any character');
  t.deepEqual(await found('of_plan'), ['q4']);
  t.deepEqual(await listQuestions(x, 'acme', 'u1', { q: 'revenue', after: { at: 2000, id: 'q2' } }).then((r) => r.map((q) => q.id)), ['q1'], 'a page of the search after the cursor');
});
