/** Where the SQL editor opens: a saved question, an answer's table in a chat, or an empty query. */
export type EditorOpening = { question: string } | { chat: string; answer: string; df?: string | undefined } | Record<string, never>;

/** The editor's address for an opening (`/sql?question=…`, `/sql?chat=…&answer=…&df=…`, `/sql`). */
export function sqlEditorPath(at: EditorOpening = {}): string {
  const query = new URLSearchParams(Object.entries(at).filter((e): e is [string, string] => typeof e[1] === 'string')).toString();
  return query ? `/sql?${query}` : '/sql';
}

/** The opening an address names. */
export function openingOf(params: URLSearchParams): EditorOpening {
  const question = params.get('question');
  if (question) return { question };
  const chat = params.get('chat');
  const answer = params.get('answer');
  if (chat && answer) return { chat, answer, df: params.get('df') ?? undefined };
  return {};
}
