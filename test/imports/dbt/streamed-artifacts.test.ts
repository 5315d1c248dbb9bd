// Artifacts uploaded as file parts are streamed (read-json-sections.ts), JSON bodies parsed whole: both
// read to the same manifest and catalog, and a bad file part gets the same 422 as a bad JSON body,
// naming the part and what is wrong, with nothing written.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { readCatalog, readManifest } from '../../../src/imports/dbt/read-artifacts.ts';

const fixture = (project: string, file: string) => new URL(`../../../fixtures/dbt/${project}/${file}`, import.meta.url).pathname;
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

let t0: TestApp;
let admin: string;

test.before(async () => {
  t0 = await startTestApp();
  t0.org('stream-org');
  admin = t0.session(t0.user({ orgId: 'stream-org', role: 'admin' }));
});
test.after.always(() => t0?.stop());

for (const project of ['jaffle_shop', 'bigquery_shop']) {
  test(`a streamed file reads to the same manifest and catalog as the parsed JSON value (${project})`, async (t) => {
    const [manifestPath, catalogPath] = [fixture(project, 'manifest.json'), fixture(project, 'catalog.json')];
    const streamed = await readManifest({ path: manifestPath });
    const parsed = await readManifest({ value: json(manifestPath) });
    t.deepEqual(streamed, parsed);
    t.deepEqual(await readCatalog({ path: catalogPath }, streamed), await readCatalog({ value: json(catalogPath) }, parsed));
  });
}

async function upload(manifest: string, catalog?: string) {
  const form = new FormData();
  form.append('connection_id', 'wh');
  form.append('manifest', new Blob([manifest]), 'manifest.json');
  if (catalog !== undefined) form.append('catalog', new Blob([catalog]), 'catalog.json');
  const res = await t0.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } });
  return { status: res.status, body: (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] } };
}

test('a bad file part gets a 422 naming the part and what is wrong, and nothing is written', async (t) => {
  const manifestText = readFileSync(fixture('bigquery_shop', 'manifest.json'), 'utf8');
  const detail = async (manifest: string, catalog?: string) => {
    const res = await upload(manifest, catalog);
    t.is(res.status, 422, JSON.stringify(res.body));
    t.true(res.body.detail.every((d) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string'), 'the HTTPValidationError shape');
    return res.body.detail[0]!;
  };
  t.like(await detail(manifestText.slice(0, manifestText.length / 2)), { loc: ['body', 'manifest'], type: 'json_invalid' });
  t.like(await detail(`${manifestText} {}`), { loc: ['body', 'manifest'], type: 'json_invalid' });
  t.like(await detail('[1, 2]'), { loc: ['body', 'manifest'], msg: 'not a dbt manifest (no metadata.dbt_schema_version of a manifest, or no nodes)' });
  t.regex((await detail(JSON.stringify({ metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v10.json' }, nodes: [] }))).msg, /not a dbt manifest/);
  const old = manifestText.replace('/dbt/manifest/v10.json', '/dbt/manifest/v9.json');
  t.regex((await detail(old)).msg, /unsupported manifest schema version v9/);
  t.like(await detail(manifestText, '{ "nodes": '), { loc: ['body', 'catalog'], type: 'json_invalid' });
  t.like(await detail(manifestText, manifestText), { loc: ['body', 'catalog'] });
  const foreign = JSON.stringify({ metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/catalog/v1.json' }, nodes: { 'model.other_project.orders': { metadata: {}, columns: {} } } });
  t.regex((await detail(manifestText, foreign)).msg, /catalog of another project \(other_project\)/);
  t.deepEqual((await call(t0, 'GET', '/api/environments', { token: admin })).body, [], 'no environment was made');
});
