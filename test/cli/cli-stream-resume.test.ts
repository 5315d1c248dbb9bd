// The real CLI process against a loopback server that cuts the answer's stream mid-way: the CLI
// reconnects on the subscribe route with Last-Event-ID and prints every event once.
import test from 'ava';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cliRunner, CLI_SOURCE } from '../helpers/cli.ts';

const cli = CLI_SOURCE;

type Frame = { id: number; type: string; [k: string]: unknown };
const frame = (e: Frame) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
const EVENTS: Frame[] = [
  { id: 1, type: 'tool_call', name: 'search_catalog' },
  { id: 2, type: 'text_delta', text: 'Revenue ' },
  { id: 3, type: 'text_delta', text: 'grew ' },
  { id: 4, type: 'tool_call', name: 'run_sql' },
  { id: 5, type: 'text_delta', text: 'by 12%.' },
  { id: 6, type: 'completed', status: 'completed', credits: 3 },
];

interface Seen {
  method: string;
  url: string;
  lastEventId: string | undefined;
}

/** A server whose first `drops` streams end (abruptly) after `cutAfter` events; later ones resume after Last-Event-ID. */
async function cuttingServer(cutAfter: number, drops = 1): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  let streams = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method!, url: req.url!, lastEventId: req.headers['last-event-id'] as string | undefined });
    req.resume();
    if (!req.url!.startsWith('/api/agentic/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('retry: 5\n\n');
    const after = Number(req.headers['last-event-id'] ?? 0);
    const rest = EVENTS.filter((e) => e.id > after);
    if (streams++ < drops) {
      // Half of the next event too, then the connection goes: the client must not take the half.
      res.write(rest.slice(0, cutAfter).map(frame).join('') + frame(rest[cutAfter]!).slice(0, 12), () => res.destroy());
      return;
    }
    res.end(rest.map(frame).join(''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

test('a stream cut mid-answer is resumed after the last event, and every event is printed once', async (t) => {
  const { url, seen, server } = await cuttingServer(3);
  try {
    const r = await cliRunner(cli, url).run(['ask', 'how did revenue do?', '--chat', 'c-1'], { SEXTANT_TOKEN: 't' });
    t.is(r.code, 0, r.stderr);
    t.regex(r.stdout, /^Revenue grew by 12%\.\n/);
    t.is(r.stdout.match(/Revenue|grew|by 12%/g)?.length, 3);
    t.regex(r.stdout, /credits: 3/);
    t.is(r.stderr.match(/… search_catalog/g)?.length, 1);
    t.is(r.stderr.match(/… run_sql/g)?.length, 1);
    t.regex(r.stderr, /reconnecting \(1\)/);
    const streams = seen.filter((s) => s.url.startsWith('/api/agentic/'));
    t.deepEqual(streams, [
      { method: 'POST', url: '/api/agentic/stream', lastEventId: undefined },
      { method: 'GET', url: '/api/agentic/subscribe/c-1', lastEventId: '3' },
    ]);
  } finally {
    server.close();
  }
});

test('a stream that keeps dropping is followed across several reconnections', async (t) => {
  const { url, seen, server } = await cuttingServer(1, 3);
  try {
    const r = await cliRunner(cli, url).run(['ask', 'how did revenue do?', '--chat', 'c-2', '--json'], { SEXTANT_TOKEN: 't' });
    t.is(r.code, 0, r.stderr);
    t.is((JSON.parse(r.stdout) as { answer: string }).answer, 'Revenue grew by 12%.');
    t.deepEqual(seen.filter((s) => s.url.startsWith('/api/agentic/')).map((s) => s.lastEventId), [undefined, '1', '2', '3']);
  } finally {
    server.close();
  }
});

test('a run the server no longer knows ends the command with a message instead of retrying forever', async (t) => {
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === '/api/agentic/stream') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`retry: 5\n\n${frame(EVENTS[0]!)}`);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Chat not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await cliRunner(cli, `http://127.0.0.1:${(server.address() as AddressInfo).port}`).run(['ask', 'q', '--chat', 'c-3'], { SEXTANT_TOKEN: 't' });
    t.not(r.code, 0);
    t.regex(r.stderr, /could not be resumed \(HTTP 404\); the run goes on in chat c-3/);
  } finally {
    server.close();
  }
});
