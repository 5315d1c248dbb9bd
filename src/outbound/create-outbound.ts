// The one guarded HTTP client for every request the server makes on a user's behalf: identity
// providers (discovery, token, keys), git remotes and the GitHub API of mirroring, and whatever later
// reaches an address an organization names. The operator's own endpoints (SEXTANT_LLM_BASE_URL, the
// OTLP exporter, SMTP) are the operator's choice and stay direct.
import type { HttpClient } from 'isomorphic-git';
import type { LookupFunction } from 'node:net';
import { parseAllowList } from './allow-list.ts';
import { createHostCheck, type CheckHost } from './check-host.ts';
import { guardedFetch, type OutboundFetch } from './guarded-fetch.ts';
import { guardedGitHttp } from './git-http.ts';
import { createSend } from './send-request.ts';

/** The guarded client: a fetch and isomorphic-git's http, both refusing internal addresses. */
export interface Outbound {
  fetch: OutboundFetch;
  git: HttpClient;
  /** The same policy for raw TCP (warehouse hosts): resolves, checks, answers the address to connect to. */
  checkHost: CheckHost;
}

export interface OutboundOptions {
  /** SEXTANT_OUTBOUND_ALLOW: host names, addresses and CIDRs the operator lets through. */
  allow?: readonly string[];
  /** Replaces DNS resolution (tests give made-up public names a loopback address). */
  lookup?: LookupFunction;
  /** Deadline of one request, answer body included, unless the caller's signal ends it first (default 30 s). */
  timeoutMs?: number;
}

/** Builds the client; with no allow list only public unicast addresses are reached. */
export function createOutbound({ allow = [], lookup, timeoutMs = 30_000 }: OutboundOptions = {}): Outbound {
  const list = parseAllowList(allow);
  const send = createSend({ allow: list, lookup, timeoutMs });
  return { fetch: guardedFetch(send), git: guardedGitHttp(send), checkHost: createHostCheck({ allow: list, lookup }) };
}
