// The one place the server opens a connection on a user's behalf. request-filtering-agent resolves the
// host and refuses loopback, private, link-local, CGNAT, multicast, unspecified and other non-unicast
// addresses (IPv4-mapped IPv6 included) inside the socket's own lookup, so the address checked is the
// address connected to: no DNS rebinding between check and connect. Host names the operator allowed
// connect wherever they resolve; allowed addresses and CIDRs go to the agent's allow list.
import type { Agent, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { normalHost, type AllowList } from './allow-list.ts';

/** Why an outbound request produced no answer: a refused address, or a network failure. Never shown to users. */
export class OutboundFailed extends Error {
  constructor(
    readonly reason: 'refused' | 'unreachable' | 'bad_url',
    readonly origin: string,
    cause?: unknown,
  ) {
    super(`outbound request to ${origin} failed (${reason})`, { cause });
    this.name = 'OutboundFailed';
  }
}

export interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  signal?: AbortSignal | undefined;
  /** Overrides the client's deadline for this request (a push of a large pack takes longer). */
  timeoutMs?: number;
}

/** Sends one request through the guard and resolves with the answer's head; the body is the stream. */
export type Send = (url: URL, o: SendOptions) => Promise<IncomingMessage>;

interface Agents {
  http: Agent;
  https: Agent;
}

function agents(options: ConstructorParameters<typeof RequestFilteringHttpAgent>[0]): Agents {
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}

// request-filtering-agent's refusals are plain Errors; their wording is the only mark they carry.
const isRefusal = (err: unknown) => err instanceof Error && / is not allowed\b/.test(err.message);

/** Builds the guarded sender; `lookup` replaces DNS (tests resolve made-up names to loopback with it). */
export function createSend(a: { allow: AllowList; lookup?: LookupFunction | undefined; timeoutMs: number }): Send {
  const guarded = agents({ allowIPAddressList: a.allow.addresses });
  // An allowed name may resolve to an internal address; the unspecified address stays refused.
  const trusted = agents({ allowPrivateIPAddress: true });
  return (url, o) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundFailed('bad_url', url.protocol));
    const pool = a.allow.hosts.has(normalHost(url.hostname)) ? trusted : guarded;
    const agent = url.protocol === 'https:' ? pool.https : pool.http;
    const deadline = AbortSignal.timeout(o.timeoutMs ?? a.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
    return sendOnce(url, { ...o, signal }, { agent, lookup: a.lookup });
  };
}

function sendOnce(url: URL, o: SendOptions & { signal: AbortSignal }, via: { agent: Agent; lookup: LookupFunction | undefined }): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return reject(new OutboundFailed('unreachable', url.origin, o.signal.reason));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    // Aborted while the answer streams, the body ends with the abort's reason.
    const onAbort = () => (response ?? req).destroy(o.signal.reason instanceof Error ? o.signal.reason : new Error('aborted'));
    const forget = () => o.signal.removeEventListener('abort', onAbort);
    const req = send(url, { method: o.method, headers: o.headers, agent: via.agent, ...(via.lookup ? { lookup: via.lookup } : {}) }, (res) => {
      response = res;
      res.on('close', forget);
      resolve(res);
    });
    o.signal.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => {
      if (!response) forget();
    });
    req.on('error', (err) => reject(new OutboundFailed(isRefusal(err) ? 'refused' : 'unreachable', url.origin, err)));
    req.end(o.body);
  });
}
