// Reads server-sent events from a fetch Response, frame by frame.
export interface SseFrame {
  id?: number;
  event?: string;
  data?: Record<string, unknown>;
  comment?: string;
}

/** Yields frames until the server ends the stream (or the caller stops iterating). */
export async function* sseFrames(res: Response): AsyncGenerator<SseFrame> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const raw = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const frame: SseFrame = {};
        for (const line of raw.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) frame.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) frame.event = line.slice(7);
          else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
        }
        yield frame;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Collects event frames (not comments) until the stream ends or `stop` says so. */
export async function collectEvents(res: Response, stop?: (f: SseFrame, all: SseFrame[]) => boolean): Promise<SseFrame[]> {
  const out: SseFrame[] = [];
  for await (const f of sseFrames(res)) {
    if (f.event === undefined) continue;
    out.push(f);
    if (stop?.(f, out)) break;
  }
  return out;
}
