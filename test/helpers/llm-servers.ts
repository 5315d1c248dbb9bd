// Loopback servers speaking the OpenAI chat completions and Anthropic Messages streaming protocols
// with scripted replies: text and tool calls are cut into fragments the way the real services do.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | {
      text?: string;
      toolCalls?: { id: string; name: string; args: unknown }[];
      usage?: { input: number; output: number };
      delayMs?: number;
      /** Sends the first `frames` frames, then waits for `until` before the rest (a stream caught mid-answer). */
      pause?: { frames: number; until: Promise<void> };
    };

export interface ScriptedServer {
  url: string;
  /** Request bodies and headers in arrival order. */
  requests: { body: Record<string, unknown>; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

type Script = ScriptedReply[] | ((body: Record<string, unknown>, n: number) => ScriptedReply);

/** Starts a scripted server on 127.0.0.1 for `protocol`. */
export async function startScriptedServer(protocol: 'openai' | 'anthropic', script: Script): Promise<ScriptedServer> {
  const requests: ScriptedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      const n = requests.length;
      requests.push({ body, headers: req.headers });
      const reply = typeof script === 'function' ? script(body, n) : (script[n] ?? script[script.length - 1]!);
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '1', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frames = protocol === 'openai' ? openAiFrames(reply) : anthropicFrames(reply);
      const send = async () => {
        for (const [i, f] of frames.entries()) {
          if (reply.pause && i === reply.pause.frames) await reply.pause.until;
          res.write(f);
        }
        res.end();
      };
      if (reply.delayMs) setTimeout(() => void send(), reply.delayMs);
      else void send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Stream = Exclude<ScriptedReply, { status: number }>;

const pieces = (s: string, n = 3): string[] => {
  if (s.length <= n) return [s];
  const size = Math.ceil(s.length / n);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
};

function openAiFrames(r: Stream): string[] {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'scripted' };
  const frame = (choice: unknown, extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...base, choices: choice ? [choice] : [], ...extra })}\n\n`;
  const out = [frame({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null })];
  for (const p of r.text ? pieces(r.text) : []) out.push(frame({ index: 0, delta: { content: p }, finish_reason: null }));
  (r.toolCalls ?? []).forEach((c, i) => {
    out.push(frame({ index: 0, delta: { tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, finish_reason: null }));
    for (const p of pieces(JSON.stringify(c.args))) out.push(frame({ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: p } }] }, finish_reason: null }));
  });
  out.push(frame({ index: 0, delta: {}, finish_reason: r.toolCalls?.length ? 'tool_calls' : 'stop' }));
  const u = r.usage ?? { input: 10, output: 5 };
  out.push(frame(null, { usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output } }));
  out.push('data: [DONE]\n\n');
  return out;
}

function anthropicFrames(r: Stream): string[] {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const u = r.usage ?? { input: 10, output: 5 };
  const out = [
    ev('message_start', {
      message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'scripted', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: u.input, output_tokens: 1 } },
    }),
  ];
  let index = 0;
  if (r.text) {
    out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const p of pieces(r.text)) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
    out.push(ev('content_block_stop', { index }));
    index++;
  }
  for (const c of r.toolCalls ?? []) {
    out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }));
    out.push('event: ping\ndata: {"type": "ping"}\n\n');
    for (const p of pieces(JSON.stringify(c.args))) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
    out.push(ev('content_block_stop', { index }));
    index++;
  }
  out.push(ev('message_delta', { delta: { stop_reason: r.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: u.output } }));
  out.push(ev('message_stop', {}));
  return out;
}
