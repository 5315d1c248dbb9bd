// One gateway per test file served from a fresh PostgreSQL database (the route tests run on SQLite):
// a shared app, the mail outbox read back, and a logged skip when PostgreSQL is absent.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { listOutbox } from '../../src/mail/index.ts';
import { startPgTestApp, type TestApp } from './app.ts';
import { SKIP_PG_STORE } from './pg-database.ts';

export const pgTest = anyTest as TestFn<{ app?: TestApp }>;

/** Starts the file's app before its tests (cheap bcrypt) and stops it after them. */
export function sharedPgApp(env: Record<string, string> = {}, deps: Parameters<typeof startPgTestApp>[1] = {}): void {
  pgTest.before(async (t) => {
    t.context.app = await startPgTestApp({ SEXTANT_BCRYPT_COST: '4', ...env }, deps);
  });
  pgTest.after.always(async (t) => {
    await t.context.app?.stop();
  });
}

/** The shared app, or undefined (a logged skip) when PostgreSQL is absent. */
export function pgApp(t: ExecutionContext<{ app?: TestApp }>): TestApp | undefined {
  if (!t.context.app) t.log(SKIP_PG_STORE);
  return t.context.app;
}

/** The value after `label: ` in the newest mail to `to` whose text has it. */
export async function mailed(a: TestApp, to: string, label: string): Promise<string> {
  await a.app.services.accountMail.idle();
  const pattern = new RegExp(`${label}: (\\S+)`);
  const mail = (await listOutbox(a.app.services.executor, 500)).find((m) => m.to === to && pattern.test(m.text));
  if (!mail) throw new Error(`no mail to ${to} with "${label}"`);
  return pattern.exec(mail.text)![1]!;
}
