// Listening and graceful shutdown: stop accepting, let in-flight requests finish within the grace
// period, then close what is left and the store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';

export interface RunningServer {
  server: Server;
  url: string;
  /** The separate metrics listener's URL (SEXTANT_METRICS_PORT), when one runs. */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open. Node's 5 s is shorter than what load balancers
 * and clients keep one for (AWS ALB and many proxies: 60 s; undici: the server's hint less 1 s, by a
 * timer a busy client runs late): they send on a connection the server is closing and get a reset,
 * a 502 at a balancer. Seen as "fetch failed" between two replicas in CI under load.
 */
export const KEEP_ALIVE_MS = 65_000;

/** Starts an HTTP server for `koa` on host:port (port 0 picks a free one) and gives its URL. */
async function serve(koa: App['koa'], host: string, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer(koa.callback());
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node requires the headers' timeout to outlast the keep-alive one.
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return { server, url: `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}` };
}

/** Listens on host:port (port 0 picks a free one), and on the metrics port when one is configured. */
export async function listen(app: App, { host, port, graceMs }: { host: string; port: number; graceMs: number }): Promise<RunningServer> {
  const { server, url } = await serve(app.koa, host, port);
  const { metricsHost, metricsPort } = app.services.config.ops;
  const metrics = app.metricsKoa && metricsPort !== undefined ? await serve(app.metricsKoa, metricsHost, metricsPort).catch((err: unknown) => {
    server.close();
    throw err;
  }) : undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const deadline = Date.now() + graceMs;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The metrics listener stops accepting with the main one; its idle keep-alive connections are cut below.
      const metricsClosed = metrics ? new Promise<void>((resolve) => metrics.server.close(() => resolve())) : undefined;
      server.closeIdleConnections();
      // Running answers finish within the grace period (their streams end with them); the rest are cut.
      await app.finishRuns(graceMs);
      // Other long-lived streams (MCP waits) watch the shutdown signal and end themselves.
      app.drain();
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), Math.max(0, deadline - Date.now()));
      await closed;
      clearTimeout(timer);
      metrics?.server.closeAllConnections();
      await metricsClosed;
      await app.close();
    })());
  return { server, url, metricsUrl: metrics?.url, stop };
}
