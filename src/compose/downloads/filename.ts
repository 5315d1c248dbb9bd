import type { AnswerSource } from '../../chats/index.ts';

// Characters no file system or header takes in a name (control characters are dropped separately).
const UNSAFE = /[/\\:*?"<>|]+/g;
const isControl = (c: string) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127;

/**
 * The name people see for a download: `<chat title> <answer date>.<ext>` (`Revenue by country
 * 2025-06-02.csv`), with the table's number when the answer has several. The gateway puts it in
 * Content-Disposition (an ASCII fallback beside the UTF-8 name).
 */
export function downloadFilename(source: Pick<AnswerSource, 'title' | 'df_key' | 'message'>, ext: string): string {
  const title = safeFilename(source.title, 'Sextant answer');
  const date = new Date(source.message.created_at).toISOString().slice(0, 10);
  const tables = source.message.answer?.tables ?? [];
  const index = source.df_key !== undefined && tables.length > 1 ? tables.findIndex((t) => t.df_key === source.df_key) : -1;
  return `${title} ${date}${index >= 0 ? ` (${index + 1})` : ''}.${ext}`;
}

/** A title as the start of a file name: no character a file system or header refuses, at most 80 long. */
export function safeFilename(title: string, fallback: string): string {
  return [...title].map((c) => (isControl(c) ? ' ' : c)).join('').replace(UNSAFE, ' ').replace(/\s+/g, ' ').replace(/^[\s.]+|[\s.]+$/g, '').slice(0, 80).trim() || fallback;
}
