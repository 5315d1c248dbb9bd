// With SEXTANT_OTEL_ENDPOINT, spans go to an OTLP/HTTP collector: here a loopback server that keeps
// what it receives (the exporter sends JSON).
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp } from '../helpers/app.ts';
import { collectEvents } from '../helpers/sse.ts';

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

async function startCollector() {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('requests, agent runs and warehouse queries become spans, a query as a child of its request', async (t) => {
  const collector = await startCollector();
  t.teardown(() => collector.close());
  const root = tempDir();
  placeOrgFile(root, 'torg', 'wh.duckdb', (await duckdbFixture()).path!);
  const app = await startTestApp({ SEXTANT_OTEL_ENDPOINT: collector.url, SEXTANT_WAREHOUSE_ROOTS: root });
  app.org('torg');
  const admin = app.session(app.user({ orgId: 'torg', role: 'admin' }));
  const post = (path: string, body: unknown) => app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.is((await post('/api/connections', { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } })).status, 201);
  t.is((await post('/api/context-agent/execute-query', { connection_id: 'wh', sql: 'SELECT count(*) FROM orders' })).status, 200);
  const stream = await post('/api/agentic/stream', { chat_id: 'traced-1', message: 'How many orders?' });
  await collectEvents(stream);
  await app.stop();

  const names = collector.spans.map((s) => s.name);
  t.true(names.includes('POST /api/context-agent/execute-query'), names.join(', '));
  t.true(names.includes('agent.run'), names.join(', '));
  const request = collector.spans.find((s) => s.name === 'POST /api/context-agent/execute-query')!;
  const query = collector.spans.find((s) => s.name === 'warehouse.query' && s.parentSpanId === request.spanId);
  t.truthy(query, 'the query span is a child of its request');
  t.deepEqual(query!.attributes.find((a) => a.key === 'db.system')?.value, { stringValue: 'duckdb' });
  t.false(names.some((n) => /traced-1|chat-/.test(n)), 'span names carry route templates, not ids');
});
