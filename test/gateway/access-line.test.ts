import test from 'ava';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { accessLineWriter, type AccessFields } from '../../src/gateway/access-line.ts';
import { createLogger } from '../../src/log.ts';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  return { stream: new Writable({ write: (c: Buffer, _e, cb) => ((text += c.toString()), cb()) }), text: () => text };
}

const fields: AccessFields = { requestId: 'req-1', method: 'GET', path: '/api/x/"quoted"\\\n\u2028é', status: 200, ms: 3, userId: 'u1' };
const viaInfo = (log: pino.Logger, f: AccessFields) => log.info({ request_id: f.requestId, method: f.method, path: f.path, status: f.status, ms: f.ms, user_id: f.userId }, 'request');

test('the access line is the text pino writes for the same fields', (t) => {
  for (const f of [fields, { ...fields, userId: undefined }]) {
    const ours = sink();
    const theirs = sink();
    const options = { base: undefined, timestamp: () => ',"time":"T"' };
    accessLineWriter(pino(options, ours.stream).child({ bound: 1 }))(f);
    viaInfo(pino(options, theirs.stream).child({ bound: 1 }), f);
    t.is(ours.text(), theirs.text());
  }
});

test('the service logger writes the access line with every field', (t) => {
  const out = sink();
  accessLineWriter(createLogger('info', out.stream))(fields);
  const line = JSON.parse(out.text()) as Record<string, unknown>;
  t.like(line, { level: 30, request_id: 'req-1', method: 'GET', path: fields.path, status: 200, ms: 3, user_id: 'u1', msg: 'request' });
  t.regex(line['time'] as string, /^\d{4}-\d\d-\d\dT/);
});

test('no access line when the level is above info', (t) => {
  const out = sink();
  const log = createLogger('info', out.stream);
  const write = accessLineWriter(log);
  log.level = 'warn';
  write(fields);
  t.is(out.text(), '');
});

test('a logger with a mixin gets the access line through pino', (t) => {
  const out = sink();
  accessLineWriter(pino({ base: undefined, mixin: () => ({ mixed: true }) }, out.stream))(fields);
  t.like(JSON.parse(out.text()), { mixed: true, request_id: 'req-1', msg: 'request' });
});
