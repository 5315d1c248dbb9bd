// Files attached to a chat: one upload per file; the server's size and type refusals come back as
// problems to show.
import { rawFetch } from '../api/client.ts';
import { problemOf } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';

export type UploadedFile = ResponseOf<'/api/upload_to_chat', 'post'>;

export async function uploadFile(chatId: string, file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append('chat_id', chatId);
  form.append('file', file, file.name);
  const res = await rawFetch('/api/upload_to_chat', { method: 'POST', body: form });
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw problemOf(res.status, body, res.headers.get('Retry-After'));
  return body as UploadedFile;
}
