// A loopback TCP relay in front of the gateway that times, for each `POST /api/agentic/stream` it
// carries, when the first answer text left the gateway (ms after the request reached the relay).
// bench/web.ts puts it between both clients and the gateway (BENCH_WEB_TIMELINE=1) to tell the
// gateway's share of the time to the first text from the client's.
import { connect, createServer, type AddressInfo, type Server } from 'node:net';

export interface WireTap {
  url: string;
  /** The time to the first text on the wire of the last stream started through the relay (NaN before it). */
  lastFirstText(): number;
  close(): Promise<void>;
}

/** Starts the relay to `target` (http://127.0.0.1:<port>). */
export async function startWireTap(target: string): Promise<WireTap> {
  const port = Number(new URL(target).port);
  let last = { at: NaN, text: NaN };
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    let stream: typeof last | undefined;
    client.on('data', (d) => {
      // One stream per connection at a time: Chromium and fetch send the POST as a new request head.
      if (d.subarray(0, 25).toString('latin1') === 'POST /api/agentic/stream ') last = stream = { at: performance.now(), text: NaN };
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (stream && Number.isNaN(stream.text) && d.includes('event: text_delta')) stream.text = performance.now() - stream.at;
      client.write(d);
    });
    const end = () => (client.destroy(), upstream.destroy());
    for (const s of [client, upstream]) s.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastFirstText: () => last.text,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
