// The follow-ups offered after an answer: questions the offline model answers, groupings people use
// first (columns whose documentation lists their values), never contact details.
import test from 'ava';
import type { Principal } from '../../src/auth/index.ts';
import { memoryKnowledge } from '../../src/agent/memory-ports.ts';
import { offlineFollowUps } from '../../src/agent/offline/check-question.ts';
import { relationshipDocs, tableDocs } from '../helpers/agent-warehouse.ts';

const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'demo', baseOrgId: 'demo', role: 'user', permissions: [], credential: 'session', scopes: [] };
const knowledge = memoryKnowledge({ tables: tableDocs(), relationships: relationshipDocs() });
const search = async (query: string, limit: number) => (await knowledge.search(principal, undefined, query, limit)).items;
const now = Date.UTC(2026, 0, 15, 12);

test('a count of customers is followed by groupings with listed values before others, and not by email', async (t) => {
  const followUps = await offlineFollowUps(search, 'How many customers bought Electronics in 2025?', [], now);
  t.deepEqual(followUps, ['and by month?', 'and by country?', 'and by segment?', 'and by status?']);
});

test('a revenue answer is followed by its other groupings and the year before', async (t) => {
  const followUps = await offlineFollowUps(search, 'Total order value by channel', [], now);
  t.deepEqual(followUps, ['and by month?', 'and by status?', 'and in 2025?']);
});
