// Small JSON client for route tests: one call per request, with a credential and an environment.
import type { TestApp } from './app.ts';

export interface Call {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Sends a JSON request as the holder of `token`, optionally scoped to an environment. */
export async function call(t: TestApp, method: string, path: string, opts: { token?: string; env?: string; body?: unknown } = {}): Promise<Call> {
  const headers: Record<string, string> = {};
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  if (opts.env) headers['x-service-environment'] = opts.env;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.fetch(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
