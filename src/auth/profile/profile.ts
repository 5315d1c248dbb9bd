import { NotFound } from '../../errors.ts';
import type { Db } from '../../store/index.ts';
import { getUser } from '../directory.ts';
import { listMemories, type Memory } from './memories.ts';
import type { Principal } from '../principal.ts';

export interface Profile {
  user_id: string;
  email: string;
  name: string;
  /** The field labelled Background (legacy name). */
  slack_title: string;
  memories: Memory[];
}

/** The caller's profile with their saved memories. */
export function getProfile({ db }: { db: Db }, principal: Principal): Profile {
  const user = getUser(db, principal.userId);
  if (!user) throw new NotFound();
  return { user_id: user.id, email: user.email, name: user.name, slack_title: user.slack_title, memories: listMemories(db, principal) };
}

/** Changes name and/or Background; omitted fields stay. */
export function updateProfile({ db }: { db: Db }, principal: Principal, input: { name?: string | undefined; slack_title?: string | undefined }): Profile {
  db.prepare('UPDATE users SET name = COALESCE(?, name), slack_title = COALESCE(?, slack_title) WHERE id = ?').run(input.name ?? null, input.slack_title ?? null, principal.userId);
  return getProfile({ db }, principal);
}
