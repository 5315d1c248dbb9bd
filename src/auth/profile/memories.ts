// Personal memories (notes the agent reads). A user-supplied title wins; otherwise the title is
// derived from the content, and derived again whenever the content is edited.
import type { Clock } from '../../clock.ts';
import { NotFound } from '../../errors.ts';
import { newId } from '../../security/index.ts';
import { statement, type Db } from '../../store/index.ts';
import type { Principal } from '../principal.ts';

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

/** The caller's memories, oldest first. */
export function listMemories(db: Db, principal: Principal): Memory[] {
  return (statement(db, 'SELECT * FROM user_memories WHERE user_id = ? ORDER BY created_at, rowid').all(principal.userId) as MemoryRow[]).map(toMemory);
}

/** Adds a memory. */
export function addMemory({ db, clock }: { db: Db; clock: Clock }, principal: Principal, input: { content: string; title?: string | undefined }): Memory {
  const id = newId();
  const now = clock.now();
  const userTitle = input.title?.trim();
  db.prepare('INSERT INTO user_memories (id, user_id, title, title_from_user, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    principal.userId,
    userTitle || titleFromContent(input.content),
    userTitle ? 1 : 0,
    input.content,
    now,
    now,
  );
  return getMemory(db, principal, id);
}

/** Edits a memory of the caller (404 for anyone else's). */
export function editMemory({ db, clock }: { db: Db; clock: Clock }, principal: Principal, id: string, input: { content?: string | undefined; title?: string | undefined }): Memory {
  const current = getMemory(db, principal, id);
  const content = input.content ?? current.content;
  const userTitle = input.title?.trim();
  const [title, fromUser] = userTitle ? [userTitle, 1] : current.title_from_user ? [current.title, 1] : [titleFromContent(content), 0];
  db.prepare('UPDATE user_memories SET title = ?, title_from_user = ?, content = ?, updated_at = ? WHERE id = ? AND user_id = ?').run(
    title,
    fromUser,
    content,
    clock.now(),
    id,
    principal.userId,
  );
  return getMemory(db, principal, id);
}

/** Deletes a memory of the caller (404 for anyone else's). */
export function deleteMemory({ db }: { db: Db }, principal: Principal, id: string): void {
  if (db.prepare('DELETE FROM user_memories WHERE id = ? AND user_id = ?').run(id, principal.userId).changes !== 1) throw new NotFound('Memory not found', 'MEMORY_NOT_FOUND');
}

function getMemory(db: Db, principal: Principal, id: string): Memory {
  const row = db.prepare('SELECT * FROM user_memories WHERE id = ? AND user_id = ?').get(id, principal.userId) as MemoryRow | undefined;
  if (!row) throw new NotFound('Memory not found', 'MEMORY_NOT_FOUND');
  return toMemory(row);
}
