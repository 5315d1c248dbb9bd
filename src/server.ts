// Listening and graceful shutdown: stop accepting, let in-flight requests finish within the grace
// period, then close what is left and the store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';

export interface RunningServer {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one). */
export async function listen(app: App, { host, port, graceMs }: { host: string; port: number; graceMs: number }): Promise<RunningServer> {
  const server = createServer(app.koa.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Long-lived streams watch the shutdown signal and end themselves.
      app.drain();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await app.close();
    })());
  return { server, url, stop };
}
