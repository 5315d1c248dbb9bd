// Signed-in sessions: a row per session plus a JWT naming it, checked on every request. Embedded-user
// tokens are sessions too (kind 'embedded'), tied to the session or API token that minted them.
import type { Clock } from '../../clock.ts';
import { newId } from '../../security/index.ts';
import type { Executor, Query } from '../../store/index.ts';
import type { SessionCallerRow } from './credential-rows.ts';
import type { UserRow } from '../directory.ts';
import { signJwt } from './jwt.ts';
import { readOrgSettings } from '../members/org-settings-rows.ts';

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

export type SessionKind = 'session' | 'embedded';

export interface StartedSession {
  token: string;
  sessionId: string;
  expiresAt: number;
  /** Whose session it is (the gateway remembers the device for them). */
  userId: string;
}

/** What minted an embedded session: it lives only while this does. */
export interface SessionParent {
  sessionId?: string | undefined;
  tokenId?: string | undefined;
}

/** What signing a session needs: the store, the clock and the JWT key. */
export interface SessionDeps {
  store: Executor;
  clock: Clock;
  jwtKey: string;
}

/**
 * A new session row's INSERT and the session it stands for (its JWT, purpose = kind), for a caller
 * that stores it itself; `ttlSeconds` is decided by the caller.
 */
export function sessionWrite(
  { store, clock, jwtKey }: SessionDeps,
  user: Pick<UserRow, 'id' | 'token_version'>,
  orgId: string,
  { ttlSeconds, kind = 'session', parent = {} }: { ttlSeconds: number; kind?: SessionKind; parent?: SessionParent },
): { insert: Query; session: StartedSession } {
  const sessionId = newId();
  const now = clock.now();
  const expiresAt = now + ttlSeconds * 1000;
  const insert = store.db.insertInto('sessions').values({
    id: sessionId,
    user_id: user.id,
    org_id: orgId,
    kind,
    parent_session_id: parent.sessionId ?? null,
    parent_token_id: parent.tokenId ?? null,
    created_at: now,
    expires_at: expiresAt,
  });
  const token = signJwt(jwtKey, clock, kind, { sub: user.id, org: orgId, tv: user.token_version, sid: sessionId }, ttlSeconds);
  return { insert, session: { token, sessionId, expiresAt, userId: user.id } };
}

/**
 * Starts a session for a user acting in an organization and returns its JWT (purpose = kind). A
 * signed-in session lives as long as the organization's settings say, unless `ttlSeconds` is given.
 */
export async function startSession(
  deps: SessionDeps,
  user: Pick<UserRow, 'id' | 'token_version'>,
  orgId: string,
  { ttlSeconds: ttl, kind = 'session', parent = {} }: { ttlSeconds?: number; kind?: SessionKind; parent?: SessionParent } = {},
): Promise<StartedSession> {
  const ttlSeconds = ttl ?? (kind === 'session' ? (await readOrgSettings(deps.store, orgId)).session_lifetime_seconds : null) ?? SESSION_TTL_SECONDS;
  const { insert, session } = sessionWrite(deps, user, orgId, { ttlSeconds, kind, parent });
  await deps.store.run(insert);
  return session;
}

/** Ends one session (logout); embedded sessions it minted die with it (checked on use). */
export async function endSession({ store, clock }: { store: Executor; clock: Clock }, sessionId: string): Promise<void> {
  await store.run(store.db.updateTable('sessions').set({ ended_at: clock.now() }).where('id', '=', sessionId).where('ended_at', 'is', null));
}

/**
 * True when the session a token names is live and of this kind, user and organization; for an
 * embedded session, the session or API token that minted it must be live too. The row comes from the
 * request's one authentication statement (credential-rows.ts).
 */
export function sessionIsLive(row: SessionCallerRow, now: number, kind: SessionKind, userId: string, orgId: string): boolean {
  if (row.s_kind !== kind || row.s_user_id !== userId || row.s_ended_at !== null || row.s_expires_at === null || row.s_expires_at <= now) return false;
  // Sessions started before migration 0011 have no organization; membership is still checked.
  if (row.s_org_id !== null && row.s_org_id !== orgId) return false;
  if (kind === 'session') return true;
  if (row.parent_session_id !== null) return row.p_ended_at === null && row.p_expires_at !== null && row.p_expires_at > now;
  if (row.parent_token_id !== null) return row.t_id !== null && row.t_revoked_at === null && (row.t_expires_at === null || row.t_expires_at > now);
  return false;
}
