/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parses a server-sent event stream into events (comments, used as keep-alives, are skipped). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let current: SseEvent = { data: '' };
  let hasData = false;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (hasData) yield current;
        current = { data: '' };
        hasData = false;
      } else if (!line.startsWith(':')) {
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'data') {
          current.data = hasData ? `${current.data}\n${value}` : value;
          hasData = true;
        } else if (field === 'id') current.id = value;
        else if (field === 'event') current.event = value;
      }
    }
  }
}
