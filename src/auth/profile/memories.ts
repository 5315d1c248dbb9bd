// Personal memories (notes the agent reads). A user-supplied title wins; otherwise the title is
// derived from the content, and derived again whenever the content is edited.
import { NotFound } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import { byteOrder } from '../../store/index.ts';
import type { Principal } from '../principal.ts';
import type { ProfileDeps } from './deps.ts';

export interface Memory {
  memory_id: string;
  title: string;
  content: string;
  title_from_user: boolean;
  created_at: number;
  updated_at: number;
}

interface MemoryRow {
  id: string;
  title: string;
  title_from_user: number;
  content: string;
  created_at: number;
  updated_at: number;
}

const TITLE_MAX = 60;
const MEMORY_COLUMNS = ['id', 'title', 'title_from_user', 'content', 'created_at', 'updated_at'] as const;

/** A title from the first words of the content, cut at a word boundary. */
export function titleFromContent(content: string): string {
  const line = content.trim().split(/\r?\n/)[0]?.replace(/\s+/g, ' ') ?? '';
  if (line.length <= TITLE_MAX) return line || 'Memory';
  const cut = line.slice(0, TITLE_MAX);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : TITLE_MAX).trimEnd()}…`;
}

const toMemory = (r: MemoryRow): Memory => ({
  memory_id: r.id,
  title: r.title,
  content: r.content,
  title_from_user: r.title_from_user === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** The caller's memories, oldest first (memories made in the same millisecond in the byte order of their ids, on both dialects). */
export async function listMemories({ store }: Pick<ProfileDeps, 'store'>, principal: Principal): Promise<Memory[]> {
  const rows = await store.all(store.db.selectFrom('user_memories').select(MEMORY_COLUMNS).where('user_id', '=', principal.userId).orderBy('created_at').orderBy(byteOrder(store, 'id')));
  return rows.map(toMemory);
}

/** Adds a memory. */
export async function addMemory({ store, clock }: ProfileDeps, principal: Principal, input: { content: string; title?: string | undefined }): Promise<Memory> {
  const now = clock.now();
  const userTitle = input.title?.trim();
  const row = await store.one(
    store.db
      .insertInto('user_memories')
      .values({ id: newId(), user_id: principal.userId, title: userTitle || titleFromContent(input.content), title_from_user: userTitle ? 1 : 0, content: input.content, created_at: now, updated_at: now })
      .returning(MEMORY_COLUMNS),
  );
  return toMemory(row!);
}

/**
 * Edits a memory of the caller (404 for anyone else's). The title depends on the stored one, so the
 * update is conditional on the row read: an edit that lost a race to another is made again on the
 * row that won, as if it had come second.
 */
export async function editMemory(deps: ProfileDeps, principal: Principal, id: string, input: { content?: string | undefined; title?: string | undefined }): Promise<Memory> {
  for (;;) {
    const current = await getMemory(deps, principal, id);
    const content = input.content ?? current.content;
    const userTitle = input.title?.trim();
    const [title, fromUser] = userTitle ? [userTitle, 1] : current.title_from_user ? [current.title, 1] : [titleFromContent(content), 0];
    const row = await deps.store.one(
      deps.store.db
        .updateTable('user_memories')
        .set({ title, title_from_user: fromUser, content, updated_at: deps.clock.now() })
        .where('id', '=', id)
        .where('user_id', '=', principal.userId)
        .where('title', '=', current.title)
        .where('title_from_user', '=', current.title_from_user ? 1 : 0)
        .where('content', '=', current.content)
        .returning(MEMORY_COLUMNS),
    );
    if (row) return toMemory(row);
  }
}

/** Deletes a memory of the caller (404 for anyone else's). */
export async function deleteMemory({ store }: Pick<ProfileDeps, 'store'>, principal: Principal, id: string): Promise<void> {
  const { changes } = await store.run(store.db.deleteFrom('user_memories').where('id', '=', id).where('user_id', '=', principal.userId));
  if (changes !== 1) throw new MemoryNotFound();
}

async function getMemory({ store }: Pick<ProfileDeps, 'store'>, principal: Principal, id: string): Promise<Memory> {
  const row = await store.one(store.db.selectFrom('user_memories').select(MEMORY_COLUMNS).where('id', '=', id).where('user_id', '=', principal.userId));
  if (!row) throw new MemoryNotFound();
  return toMemory(row);
}

class MemoryNotFound extends NotFound {
  constructor() {
    super('Memory not found', 'MEMORY_NOT_FOUND');
  }
}
