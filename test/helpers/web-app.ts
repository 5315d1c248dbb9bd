// A gateway serving the built web client with the demo organization (offline model, small demo
// warehouse), and a Chromium to drive it: the fixture of the browser tests, shared per test file.
import type { Browser } from 'playwright-core';
import type { AppDeps } from '../../src/app.ts';
import type { Role } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { PASSWORD, passwordUser } from './auth.ts';
import { principalOf } from './chats.ts';
import { startTestApp, type TestApp } from './app.ts';
import { gatewayDiagnosis, launchChromium } from './browser.ts';
import { webBuild } from './web-build.ts';

export interface WebTestApp extends TestApp {
  browser: Browser;
}

export const DEMO = {
  analyst: { email: 'analyst@demo.sextant.local', password: 'demo-analyst-password' },
  admin: { email: 'admin@demo.sextant.local', password: 'demo-admin-password' },
};

/** Builds the client if needed, starts the gateway with the demo and launches Chromium. */
export async function startWebApp(env: Record<string, string> = {}, deps: Pick<AppDeps, 'llmProvider' | 'mailer'> = {}): Promise<WebTestApp> {
  const webDir = await webBuild();
  const t = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '3000', SEXTANT_BCRYPT_COST: '4', ...env }, { ...deps, webDir });
  const browser = await launchChromium();
  const stop = t.stop;
  gatewayDiagnosis.set(t.url, () => diagnosis(t));
  return Object.assign(t, {
    browser,
    stop: async () => {
      gatewayDiagnosis.delete(t.url);
      await browser.close();
      await stop();
    },
  });
}

/** Signs the browser context in through the API (the cookie lands in the context's jar). */
export async function signInAs(context: import('playwright-core').BrowserContext, who: { email: string; password: string } = DEMO.analyst): Promise<void> {
  const res = await context.request.post('/api/auth/token', { data: { email: who.email, password: who.password } });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
}

/** A new member of the demo organization with the shared test password, and what tests need of them. */
export async function demoMember(w: WebTestApp, role: Role = 'user') {
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role });
  return { user, orgId: DEMO_ORG_ID, login: { email: user.email, password: PASSWORD }, principal: principalOf(w, user, DEMO_ORG_ID) };
}

/** The gateway's warnings and errors, and its latest agent runs with their events' types. */
function diagnosis(t: TestApp): string {
  const warnings = t.logs.filter((l) => Number(l['level']) >= 40).slice(-20);
  const db = t.app.services.store.sqlite;
  const runs = db
    ? (db.prepare('SELECT id, chat_id, status, created_at, finished_at FROM agent_runs ORDER BY rowid DESC LIMIT 5').all() as { id: string }[]).map((r) => ({
        ...r,
        events: (db.prepare('SELECT type FROM agent_events WHERE run_id = ? ORDER BY id').all(r.id) as { type: string }[]).map((e) => e.type).join(' '),
      }))
    : [];
  const live = t.app.services.agent as unknown as { active?: Map<string, unknown>; busyChats?: Set<string> };
  return [
    `gateway warnings and errors: ${JSON.stringify(warnings)}`,
    `latest runs: ${JSON.stringify(runs)}`,
    `active runs: ${JSON.stringify([...(live.active?.keys() ?? [])])}, busy chats: ${JSON.stringify([...(live.busyChats ?? [])])}`,
  ].join('\n');
}
