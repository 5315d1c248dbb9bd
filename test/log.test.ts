import test from 'ava';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { createLogger } from '../src/log.ts';
import { nodeEntry } from './helpers/node-entry.ts';

const child = new URL('helpers/log-child.ts', import.meta.url).pathname;

/** Runs the logging child and returns the lines it wrote to stdout. */
function linesOf(ending: 'exit' | 'drain', count: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeEntry(child), ending, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.once('error', reject);
    proc.once('close', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)) : reject(new Error(`exit ${code}`))));
  });
}

test('lines still pending in the batch are written when the process calls exit', async (t) => {
  const lines = await linesOf('exit', 3);
  t.deepEqual(lines.map((l) => l['i']), [0, 1, 2]);
});

test('lines still pending are written when the event loop runs empty', async (t) => {
  const lines = await linesOf('drain', 3);
  t.deepEqual(lines.map((l) => l['i']), [0, 1, 2]);
});

test('many batches arrive whole and in order', async (t) => {
  const lines = await linesOf('exit', 2000);
  t.is(lines.length, 2000);
  t.true(lines.every((l, i) => l['i'] === i && l['msg'] === 'line'));
});

test('every line carries an ISO time of its own millisecond', (t) => {
  const out: string[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, cb) => (out.push(c.toString()), cb()) });
  const log = createLogger('info', sink);
  const before = Date.now();
  log.info('a');
  const after = Date.now();
  const time = Date.parse((JSON.parse(out[0]!) as { time: string }).time);
  t.true(time >= before && time <= after);
});
