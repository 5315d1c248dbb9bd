// A mail the outbox gives up on is matched to its subscription delivery by outbox id
// (src/subscriptions/mail-give-up.ts): that lookup reads an index, not every delivery kept.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/open-store.ts';

test('the give-up lookup by outbox id uses the deliveries index', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-give-up-'));
  const store = openStore({ file: join(dir, 'sextant.db') });
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const plan = store.db
    .prepare(`EXPLAIN QUERY PLAN SELECT s.id, s.owner_id FROM subscription_deliveries d
      JOIN subscription_runs r ON r.id = d.run_id JOIN subscriptions s ON s.id = r.subscription_id WHERE d.outbox_id = ?`)
    .all('outbox-1') as { detail: string }[];
  t.true(plan.some((row) => /SEARCH d USING INDEX subscription_deliveries_outbox/.test(row.detail)), JSON.stringify(plan));
});
