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
      const deadline = Date.now() + graceMs;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Running answers finish within the grace period (their streams end with them); the rest are cut.
      await app.finishRuns(graceMs);
      // Other long-lived streams (MCP waits) watch the shutdown signal and end themselves.
      app.drain();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
      await closed;
      clearTimeout(timer);
      await app.close();
    })());
  return { server, url, stop };
}
