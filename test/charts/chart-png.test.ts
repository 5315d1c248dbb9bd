// Charts drawn on the server: a Vega-Lite spec over given rows becomes a PNG; a spec that names a URL
// for its data reaches no network (the loader refuses) and still draws, empty; a spec asking for any
// size draws within a bounded box; a spec whose transforms would take the memory or the time of the
// gateway ends its drawing process instead, and the next chart draws.
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChartDrawer, chartPng } from '../../src/charts/chart-png.ts';
import { FakeClock } from '../../src/clock.ts';

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

test('a spec asking for any size is laid out capped and drawn at most the width wide and four times that tall; it never takes the memory', async (t) => {
  const bar = (size: Record<string, unknown>) => ({ mark: 'bar', data: { values: [{ a: 'x', b: 2, width: 5_000_000 }] }, encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative', axis: { tickCount: 1_000_000 } } }, ...size });
  // 5 x 5,000,000 took every byte of the machine's memory before; the others drew for seconds to minutes.
  const hostile = [{ width: 5, height: 5_000_000 }, { width: 1, height: 100_000 }, { width: { step: 1_000_000 }, height: 1_000_000 }, { vconcat: [{ height: 1e9 }, { height: 1e9 }].map((v) => bar(v)) }, { config: { view: { continuousHeight: 1e9 } } }];
  for (const size of hostile) {
    const png = await chartPng({ spec: bar(size) });
    t.true(png.readUInt32BE(16) <= 640, `${JSON.stringify(size)}: width ${png.readUInt32BE(16)}`);
    t.true(png.readUInt32BE(20) <= 2560, `${JSON.stringify(size)}: height ${png.readUInt32BE(20)}`);
  }
  // A layer generating 10,000,000 values (one of 1,000,000 drew for 22 s): capped at 10,000.
  const sequence = await chartPng({ spec: { layer: [{ data: { sequence: { start: 0, stop: 1e7, as: 'x' } }, mark: 'tick', encoding: { x: { field: 'x', type: 'quantitative' } } }] } });
  t.deepEqual([...sequence.subarray(0, 4)], PNG);
  // So wide that fitting the width leaves no height: refused, as a spec that does not draw.
  await t.throwsAsync(chartPng({ spec: { ...bar({ width: 2000, height: 1 }), padding: { left: 1e9 } } }));
  const usual = await chartPng({ spec: bar({ width: 560, height: 280 }) });
  t.is(usual.readUInt32BE(16), 640, 'a usual chart fills the width as before');
});

const bar = { mark: 'bar', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } };
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ x: i, y: (i * 7919) % 1000 }));

test('a chart needing more memory than its budget ends its drawing process, not the gateway; the next chart draws; asked again, it is refused at once for ten minutes', async (t) => {
  const clock = new FakeClock();
  const drawer = new ChartDrawer({ timeoutMs: 60_000, heapMb: 128, processes: 1, idleMs: 60_000, refuseAgainMs: 600_000 }, clock);
  // A bin's step is the data's to judge, so it is not capped: 1e-9 over 0..99 asks for 1e11 bins.
  const bins = { mark: 'bar', encoding: { x: { field: 'x', bin: { step: 1e-9 }, type: 'quantitative' }, y: { aggregate: 'count' } } };
  const before = process.memoryUsage().rss;
  const memory = 'The chart needs more memory than a chart may take to draw';
  await t.throwsAsync(drawer.draw({ spec: bins, rows: rows(100) }), { message: memory });
  t.true(process.memoryUsage().rss - before < 100e6, 'the drawing did not take the memory of this process');
  t.deepEqual([...(await drawer.draw({ spec: bar, rows: rows(10) })).subarray(0, 4)], PNG);
  // The same chart again: refused without a drawing process; other rows are another chart.
  const again = new Date(clock.now() + 600_000).toISOString();
  clock.advance(599_999);
  await t.throwsAsync(drawer.draw({ spec: bins, rows: rows(100) }), { message: `${memory}; it is not drawn again until ${again}` });
  t.notRegex((await t.throwsAsync(drawer.draw({ spec: bins, rows: rows(99) })))!.message, /not drawn again/);
  clock.advance(1);
  await t.throwsAsync(drawer.draw({ spec: bins, rows: rows(100) }), { message: memory });
});

test('a chart taking longer than its budget is stopped, and the next chart draws', async (t) => {
  const drawer = new ChartDrawer({ timeoutMs: 5_000, heapMb: 256, processes: 1, idleMs: 60_000, refuseAgainMs: 600_000 });
  // Warmed by a usual chart first, so the budget is the slow chart's alone.
  t.deepEqual([...(await drawer.draw({ spec: bar, rows: rows(10) })).subarray(0, 4)], PNG);
  // A local regression over 100,000 points draws for minutes (20,000 took 5 s).
  const loess = { ...bar, mark: 'line', transform: [{ loess: 'y', on: 'x', bandwidth: 1 }] };
  await t.throwsAsync(drawer.draw({ spec: loess, rows: rows(100_000) }), { message: 'The chart took more than 5 s to draw' });
  t.deepEqual([...(await drawer.draw({ spec: bar, rows: rows(10) })).subarray(0, 4)], PNG);
});

test('charts asked for at once are drawn by at most the budget of processes, each its own chart', async (t) => {
  const drawer = new ChartDrawer({ timeoutMs: 60_000, heapMb: 256, processes: 2, idleMs: 60_000, refuseAgainMs: 600_000 });
  const widths = [200, 300, 400, 500, 600];
  const pngs = await Promise.all(widths.map((width) => drawer.draw({ spec: bar, rows: rows(10), width })));
  t.deepEqual(pngs.map((png) => png.readUInt32BE(16)), widths);
});
