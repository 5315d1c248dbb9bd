import test from 'ava';
import { appendMessage } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deps, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('the agent reads a chat for its model without the question it answers, which is recorded before the run reads', async (t) => {
  const orgId = t0.org();
  const p = principalOf(t0, t0.user({ orgId }), orgId);
  await seedChat(t0, p, 'follow-up', [{ question: 'How many orders?', answer: 'There are 40.' }]);
  const asked = await appendMessage(deps(t0), p, { chatId: 'follow-up', role: 'user', content: 'And last month?' });
  const { chats } = t0.app.services.agentPorts;
  t.deepEqual(await chats.history(p, 'follow-up', { without: asked.message_uuid }), [
    { role: 'user', content: 'How many orders?' },
    { role: 'assistant', content: 'There are 40.' },
  ]);
  t.deepEqual((await chats.history(p, 'follow-up')).at(-1), { role: 'user', content: 'And last month?' });
});
