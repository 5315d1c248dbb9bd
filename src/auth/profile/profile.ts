import { NotFound } from '../../errors.ts';
import { listMemories, type Memory } from './memories.ts';
import type { Principal } from '../principal.ts';
import type { ProfileDeps } from './deps.ts';

export interface Profile {
  user_id: string;
  email: string;
  name: string;
  /** The field labelled Background (legacy name). */
  slack_title: string;
  memories: Memory[];
}

/** The caller's profile with their saved memories. */
export async function getProfile(deps: Pick<ProfileDeps, 'store'>, principal: Principal): Promise<Profile> {
  const { store } = deps;
  const user = await store.one(store.db.selectFrom('users').select(['id', 'email', 'name', 'slack_title']).where('id', '=', principal.userId));
  if (!user) throw new NotFound();
  return { user_id: user.id, email: user.email, name: user.name, slack_title: user.slack_title, memories: await listMemories(deps, principal) };
}

/** Changes name and/or Background; omitted fields stay. */
export async function updateProfile(deps: Pick<ProfileDeps, 'store'>, principal: Principal, input: { name?: string | undefined; slack_title?: string | undefined }): Promise<Profile> {
  const set = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.slack_title !== undefined ? { slack_title: input.slack_title } : {}) };
  if (Object.keys(set).length > 0) await deps.store.run(deps.store.db.updateTable('users').set(set).where('id', '=', principal.userId));
  return getProfile(deps, principal);
}
