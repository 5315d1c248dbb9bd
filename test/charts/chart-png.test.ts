// Charts drawn on the server: a Vega-Lite spec over given rows becomes a PNG; a spec that names a URL
// for its data reaches no network (the loader refuses) and still draws, empty.
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chartPng } from '../../src/charts/chart-png.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47];

test('a bar chart over fresh rows is drawn as a PNG of the asked width', async (t) => {
  const png = await chartPng({ spec: { mark: 'bar', encoding: { x: { field: 'country', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } }, rows: [{ country: 'France', n: 3 }, { country: 'Japan', n: 5 }], width: 400 });
  t.deepEqual([...png.subarray(0, 4)], PNG);
  t.is(png.readUInt32BE(16), 400, 'the IHDR width');
});

test('data named by URL is never fetched', async (t) => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.end('[{"a":1}]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.json`;
  const png = await chartPng({ spec: { mark: 'point', data: { url }, encoding: { x: { field: 'a', type: 'quantitative' } } } });
  t.deepEqual([...png.subarray(0, 4)], PNG);
  t.is(requests, 0);
});

test('a spec that does not compile is refused', async (t) => {
  await t.throwsAsync(chartPng({ spec: { mark: 'no-such-mark' } }));
});
