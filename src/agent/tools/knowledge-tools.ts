// search_knowledge and describe_table: the model's view of the organization's documentation.
import { z } from 'zod';
import { NotFound } from '../../errors.ts';
import { defineTool, noteKnowledge } from './tool.ts';

/** Ranked search over tables, relationships, notes, skills and reports at the run's environment. */
export const searchKnowledge = defineTool({
  spec: {
    name: 'search_knowledge',
    description:
      'Searches the organization knowledge (documented tables with columns and synonyms, relationships between tables, notes, skills, saved reports). Call it first to find the tables to query.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 30 } }, required: ['query'] },
  },
  args: z.object({ query: z.string().min(1).max(2000), limit: z.number().int().min(1).max(30).default(10) }),
  async execute({ query, limit }, ctx) {
    const res = await ctx.ports.knowledge.search(ctx.principal, ctx.environmentId, query, limit, ctx.state.knowledgeCommit);
    noteKnowledge(ctx.state, res.commit, res.items);
    const items = res.items.map((i) => ({ kind: i.kind, path: i.path, title: i.title, text: i.text, score: i.score, table: i.table, relationship: i.relationship }));
    return { content: JSON.stringify({ commit: res.commit, items }), summary: `${items.length} knowledge items found` };
  },
});

/** Columns, descriptions, synonyms and relationships of one documented table. */
export const describeTable = defineTool({
  spec: {
    name: 'describe_table',
    description: 'Shows one documented table: columns with types, descriptions and synonyms, and its relationships to other tables.',
    parameters: { type: 'object', properties: { connection_id: { type: 'string' }, table: { type: 'string', description: 'schema.table or table' } }, required: ['connection_id', 'table'] },
  },
  args: z.object({ connection_id: z.string().min(1), table: z.string().min(1) }),
  async execute({ connection_id, table }, ctx) {
    const doc = await ctx.ports.knowledge.getTable(ctx.principal, ctx.environmentId, connection_id, table, ctx.state.knowledgeCommit);
    if (!doc) throw new NotFound(`No documented table ${table} on ${connection_id}`, 'TABLE_NOT_DOCUMENTED');
    const relationships = await ctx.ports.knowledge.relationships(ctx.principal, ctx.environmentId, [doc], ctx.state.knowledgeCommit);
    noteKnowledge(ctx.state, undefined, [{ kind: 'table', path: `tables/${doc.connection}/${doc.schema}.${doc.name}.yaml` }]);
    return { content: JSON.stringify({ table: doc, relationships }), summary: `${doc.schema}.${doc.name}: ${doc.columns.length} columns` };
  },
});
