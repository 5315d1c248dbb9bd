import type { AnswerSource } from '../../chats/index.ts';

const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** A file name safe in a Content-Disposition header: `<chat>_<df_key or message position>.<ext>`. */
export function downloadFilename(source: Pick<AnswerSource, 'chat_id' | 'df_key' | 'message'>, ext: string): string {
  const part = (s: string) => s.replace(UNSAFE, '_').replace(/^[._]+|_+$/g, '').slice(0, 60);
  const what = source.df_key !== undefined ? part(source.df_key) : `message${source.message.position}`;
  return `${part(source.chat_id) || 'chat'}_${what || 'data'}.${ext}`;
}
