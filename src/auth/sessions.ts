// Signed-in sessions: a row per session plus a JWT naming it, checked on every request.
import type { Clock } from '../clock.ts';
import { newId } from '../security/index.ts';
import type { Db } from '../store/index.ts';
import type { UserRow } from './directory.ts';
import { signJwt } from './jwt.ts';

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;

export interface StartedSession {
  token: string;
  sessionId: string;
  expiresAt: number;
}

/** Starts a session for a user acting in an organization and returns its JWT. */
export function startSession(
  { db, clock, jwtKey }: { db: Db; clock: Clock; jwtKey: string },
  user: Pick<UserRow, 'id' | 'token_version'>,
  orgId: string,
  ttlSeconds = SESSION_TTL_SECONDS,
): StartedSession {
  const sessionId = newId();
  const now = clock.now();
  const expiresAt = now + ttlSeconds * 1000;
  db.prepare('INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(sessionId, user.id, now, expiresAt);
  const token = signJwt(jwtKey, clock, 'session', { sub: user.id, org: orgId, tv: user.token_version, sid: sessionId }, ttlSeconds);
  return { token, sessionId, expiresAt };
}

/** Ends one session (logout). */
export function endSession(db: Db, clock: Clock, sessionId: string): void {
  db.prepare('UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(clock.now(), sessionId);
}
