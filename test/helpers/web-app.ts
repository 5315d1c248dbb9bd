// A gateway serving the built web client with the demo organization (offline model, small demo
// warehouse), and a Chromium to drive it: the fixture of the browser tests, shared per test file.
import type { Browser } from 'playwright-core';
import type { AppDeps } from '../../src/app.ts';
import type { Role } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { PASSWORD, passwordUser } from './auth.ts';
import { principalOf } from './chats.ts';
import { startTestApp, type TestApp } from './app.ts';
import { launchChromium } from './browser.ts';
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
  return Object.assign(t, {
    browser,
    stop: async () => {
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
