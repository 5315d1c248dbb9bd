// A webhook receiver on loopback: keeps every request's body and answers the statuses it is told,
// for tests of outgoing webhooks; requests to the paths in `hang` are never answered (held open until
// the sender gives up or the receiver stops), as a receiver that hangs.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  received: { path: string; body: string; contentType: string | undefined }[];
  /** Statuses answered to the next requests, in order; 200 once they run out. */
  answer: number[];
  /** Paths whose requests are never answered. */
  hang: Set<string>;
  /** How many requests are held unanswered right now (a sender that gives up closes its own). */
  readonly holding: number;
  /** Resolves once a request to `path` has arrived whole (at once if one already has). */
  arrived(path: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const r: Pick<WebhookReceiver, 'received' | 'answer' | 'hang'> = { received: [], answer: [], hang: new Set() };
  const held = new Set<ServerResponse>();
  const waiting: { path: string; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      r.received.push({ path, body: Buffer.concat(chunks).toString('utf8'), contentType: req.headers['content-type'] });
      for (const w of waiting.filter((x) => x.path === path)) w.resolve();
      if (r.hang.has(path)) {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      res.statusCode = r.answer.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get received() { return r.received; },
    get answer() { return r.answer; },
    set answer(v) { r.answer = v; },
    hang: r.hang,
    get holding() { return held.size; },
    arrived: (path) => (r.received.some((x) => x.path === path) ? Promise.resolve() : new Promise((resolve) => waiting.push({ path, resolve }))),
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      for (const res of held) res.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
