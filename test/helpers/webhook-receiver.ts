// A webhook receiver on loopback: keeps every request's body and answers the statuses it is told,
// for tests of outgoing webhooks.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  received: { path: string; body: string; contentType: string | undefined }[];
  /** Statuses answered to the next requests, in order; 200 once they run out. */
  answer: number[];
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const r: Omit<WebhookReceiver, 'url' | 'stop'> = { received: [], answer: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), contentType: req.headers['content-type'] });
      res.statusCode = r.answer.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { ...r, get received() { return r.received; }, get answer() { return r.answer; }, set answer(v) { r.answer = v; }, url: `http://127.0.0.1:${port}`, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
