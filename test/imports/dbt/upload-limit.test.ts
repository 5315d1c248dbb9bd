// A file part is streamed and a JSON body parsed whole, and both are bounded: over
// SEXTANT_UPLOAD_LIMIT, as a file part or as a JSON body, the import answers 413 before reading it,
// and nothing is written.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { JAFFLE_DIR } from '../../helpers/jaffle-warehouse.ts';

const LIMIT = 256 * 1024;
const manifestBytes = readFileSync(join(JAFFLE_DIR, 'manifest.json'));
let t0: TestApp;
let admin: string;

test.before(async () => {
  t0 = await startTestApp({ SEXTANT_UPLOAD_LIMIT: String(LIMIT) });
  t0.org('limit-org');
  admin = t0.session(t0.user({ orgId: 'limit-org', role: 'admin' }));
});
test.after.always(() => t0?.stop());

test('a manifest over the upload limit is refused with 413, as a file part or a JSON body, and no environment is made', async (t) => {
  t.true(manifestBytes.length > LIMIT, 'the jaffle manifest is over the limit set here');
  const form = new FormData();
  form.append('connection_id', 'wh');
  form.append('manifest', new Blob([manifestBytes]), 'manifest.json');
  const part = await t0.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } });
  t.is(part.status, 413);
  t.is(((await part.json()) as { code: string }).code, 'BODY_TOO_LARGE');
  const json = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'wh', manifest: JSON.parse(manifestBytes.toString('utf8')) as unknown } });
  t.is(json.status, 413);
  t.deepEqual((await call(t0, 'GET', '/api/environments', { token: admin })).body, []);
});
