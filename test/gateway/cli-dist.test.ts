import test from 'ava';
import { fromBuffer, type Entry } from 'yauzl';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('the version endpoint names the version and a download URL per platform', async (t) => {
  const res = await t0.fetch('/api/cli/version');
  t.is(res.status, 200);
  const body = (await res.json()) as { version: string; downloads: Record<string, string> };
  t.is(body.version, t0.config.version);
  t.is(body.downloads['node'], `${t0.url}/api/cli/download/node`);
});

test('an unknown platform answers 404', async (t) => {
  const res = await t0.fetch('/api/cli/download/amiga');
  t.is(res.status, 404);
  t.is(((await res.json()) as { code: string }).code, 'CLI_PLATFORM_NOT_FOUND');
});

test('the skill document is served as Markdown naming the skill', async (t) => {
  const res = await t0.fetch('/api/cli/skill');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /text\/markdown/);
  t.regex(await res.text(), /^---\nname: sextant/);
});

test('dot.skill is a zip with one root folder holding the skill document', async (t) => {
  const res = await t0.fetch('/api/cli/dot.skill');
  t.is(res.status, 200);
  const buf = Buffer.from(await res.arrayBuffer());
  const names = await new Promise<string[]>((resolve, reject) =>
    fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: string[] = [];
      zip.on('entry', (e: Entry) => {
        out.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    }),
  );
  t.deepEqual(names, ['sextant/SKILL.md']);
});

test('help needs a credential and validates q', async (t) => {
  t.is((await t0.fetch('/api/cli/help?q=hello')).status, 401);
  const token = t0.token(t0.user());
  for (const q of ['ab', 'x'.repeat(501)]) {
    const res = await t0.fetch(`/api/cli/help?q=${q}`, { headers: { 'API-KEY': token } });
    t.is(res.status, 422);
    t.deepEqual(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc, ['query', 'q']);
  }
  t.is((await t0.fetch('/api/cli/help', { headers: { 'API-KEY': token } })).status, 422);
});

test('help answers 429 with Retry-After once a user has used the hourly cap, and other users are unaffected', async (t) => {
  const own = await startTestApp({ SEXTANT_CLI_HELP_PER_HOUR: '2' });
  t.teardown(() => own.stop());
  const token = own.token(own.user());
  const ask = (tok: string) => own.fetch('/api/cli/help?q=configuration', { headers: { 'API-KEY': tok } });
  t.is((await ask(token)).status, 200);
  t.is((await ask(token)).status, 200);
  const limited = await ask(token);
  t.is(limited.status, 429);
  t.truthy(limited.headers.get('retry-after'));
  t.is((await ask(own.token(own.user()))).status, 200);
  own.clock.advance(3_600_000);
  t.is((await ask(token)).status, 200);
});
