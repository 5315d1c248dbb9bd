import test from 'ava';
import { Histogram, Registry } from 'prom-client';
import { RequestHistogram } from '../../src/ops/request-histogram.ts';

const BUCKETS = [0.001, 0.005, 0.01, 0.5];
const observations: [string, string, number, number][] = [
  ['GET', '/api/health', 200, 0.0004],
  ['GET', '/api/health', 200, 0.001], // on a bound: counted in that bucket, as Prometheus's `le` says
  ['GET', '/api/health', 200, 0.7], // above every bound: only in +Inf
  ['POST', '/api/chats/{id}', 422, 0.006],
  ['GET', '/api/"odd"\\route\n', 200, 0.002],
];

/** The exposition's sample lines with the labels of each sorted, so that label order does not count. */
async function samples(registry: Registry): Promise<string[]> {
  const text = await registry.metrics();
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.replace(/\{(.*)\}/, (_m, inner: string) => `{${inner.split(/,(?=\w+=")/).sort().join(',')}}`))
    .sort();
}

test("the request histogram's exposition is prom-client's histogram's for the same observations", async (t) => {
  const theirs = new Registry();
  const reference = new Histogram({ name: 'h_seconds', help: 'help', labelNames: ['method', 'route', 'status'], buckets: BUCKETS, registers: [theirs] });
  const ours = new Registry();
  const histogram = new RequestHistogram('h_seconds', 'help', BUCKETS, ours);
  for (const [method, route, status, seconds] of observations) {
    reference.labels(method, route, String(status)).observe(seconds);
    histogram.observe(method, route, status, seconds);
  }
  t.deepEqual(await samples(ours), await samples(theirs));
  t.true((await ours.metrics()).includes('# TYPE h_seconds histogram'));
});

test('a reset of the registry empties the request histogram', async (t) => {
  const registry = new Registry();
  const histogram = new RequestHistogram('h_seconds', 'help', BUCKETS, registry);
  histogram.observe('GET', '/x', 200, 0.002);
  registry.resetMetrics();
  t.deepEqual(await samples(registry), []);
});
