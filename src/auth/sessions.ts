// Signed-in sessions: a row per session plus a JWT naming it, checked on every request. Embedded-user
// tokens are sessions too (kind 'embedded'), tied to the session or API token that minted them.
import type { Clock } from '../clock.ts';
import { newId } from '../security/index.ts';
import { statement, type Db } from '../store/index.ts';
import type { UserRow } from './directory.ts';
import { signJwt } from './jwt.ts';

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

export type SessionKind = 'session' | 'embedded';

export interface StartedSession {
  token: string;
  sessionId: string;
  expiresAt: number;
}

/** What minted an embedded session: it lives only while this does. */
export interface SessionParent {
  sessionId?: string | undefined;
  tokenId?: string | undefined;
}

/** Starts a session for a user acting in an organization and returns its JWT (purpose = kind). */
export function startSession(
  { db, clock, jwtKey }: { db: Db; clock: Clock; jwtKey: string },
  user: Pick<UserRow, 'id' | 'token_version'>,
  orgId: string,
  { ttlSeconds = SESSION_TTL_SECONDS, kind = 'session', parent = {} }: { ttlSeconds?: number; kind?: SessionKind; parent?: SessionParent } = {},
): StartedSession {
  const sessionId = newId();
  const now = clock.now();
  const expiresAt = now + ttlSeconds * 1000;
  db.prepare('INSERT INTO sessions (id, user_id, org_id, kind, parent_session_id, parent_token_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    sessionId,
    user.id,
    orgId,
    kind,
    parent.sessionId ?? null,
    parent.tokenId ?? null,
    now,
    expiresAt,
  );
  const token = signJwt(jwtKey, clock, kind, { sub: user.id, org: orgId, tv: user.token_version, sid: sessionId }, ttlSeconds);
  return { token, sessionId, expiresAt };
}

/** Ends one session (logout); embedded sessions it minted die with it (checked on use). */
export function endSession(db: Db, clock: Clock, sessionId: string): void {
  db.prepare('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(clock.now(), sessionId);
}

/**
 * True when `sid` names a live session of this kind, user and organization, and, for an embedded
 * session, the session or API token that minted it is live too. One statement: it runs on every
 * request that carries a session or embedded JWT.
 */
export function sessionIsLive(db: Db, now: number, sid: string, kind: SessionKind, userId: string, orgId: string): boolean {
  const row = statement(
    db,
    `SELECT s.user_id, s.org_id, s.kind, s.expires_at, s.ended_at, s.parent_session_id, s.parent_token_id,
            p.ended_at AS p_ended, p.expires_at AS p_expires, t.revoked_at AS t_revoked, t.expires_at AS t_expires, t.id AS t_id
     FROM sessions s
     LEFT JOIN sessions p ON p.id = s.parent_session_id
     LEFT JOIN api_tokens t ON t.id = s.parent_token_id
     WHERE s.id = ?`,
  ).get(sid) as SessionCheckRow | undefined;
  if (!row || row.kind !== kind || row.user_id !== userId || row.ended_at !== null || row.expires_at <= now) return false;
  // Sessions started before migration 0011 have no organization; membership is still checked by the caller.
  if (row.org_id !== null && row.org_id !== orgId) return false;
  if (kind === 'session') return true;
  if (row.parent_session_id !== null) return row.p_ended === null && row.p_expires !== null && row.p_expires > now;
  if (row.parent_token_id !== null) return row.t_id !== null && row.t_revoked === null && (row.t_expires === null || row.t_expires > now);
  return false;
}

interface SessionCheckRow {
  user_id: string;
  org_id: string | null;
  kind: SessionKind;
  expires_at: number;
  ended_at: number | null;
  parent_session_id: string | null;
  parent_token_id: string | null;
  p_ended: number | null;
  p_expires: number | null;
  t_revoked: number | null;
  t_expires: number | null;
  t_id: string | null;
}
