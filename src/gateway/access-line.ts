// The access line, written once per request. Through pino's info() it cost ~1 µs more per line than
// the text itself (a loop over the fields with a type switch and an escape check per value, measured
// beside it), so it is put together here from the logger's own pieces: its level prefix, timestamp
// function, bindings and line end, around fields whose keys are fixed. The result is the line pino
// would write (a test compares them). A destination that wants pino's metadata (multistream), and a
// logger with a mixin, hooks, a log formatter or another message key, get the line through info().
import { pino } from 'pino';
import type { Logger } from '../log.ts';

export interface AccessFields {
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  userId: string | undefined;
}

const INFO = 30;

/** A function writing one access line to `log` (a logger without redaction: no field holds a secret). */
export function accessLineWriter(log: Logger): (f: AccessFields) => void {
  const viaPino = (f: AccessFields) => log.info({ request_id: f.requestId, method: f.method, path: f.path, status: f.status, ms: f.ms, user_id: f.userId }, 'request');
  const own = log as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym] as pino.DestinationStream & Record<symbol, unknown>;
  const hooks = own[Symbol.for('pino.hooks')] as { streamWrite?: unknown } | undefined;
  const formatters = own[Symbol.for('pino.formatters')] as { log?: unknown } | undefined;
  const plain = own[pino.symbols.messageKeySym] === 'msg' && !own[pino.symbols.nestedKeySym] && !own[pino.symbols.mixinSym] && !hooks?.streamWrite && !formatters?.log;
  if (!plain || stream[pino.symbols.needsMetadataGsym] === true) return viaPino;
  const prefix = (own[pino.symbols.lsCacheSym] as Record<number, string>)[INFO]!;
  const time = own[pino.symbols.timeSym] as () => string;
  const bindings = own[pino.symbols.chindingsSym] as string;
  const end = own[pino.symbols.endSym] as string;
  return (f) => {
    if (!log.isLevelEnabled('info')) return;
    const user = f.userId === undefined ? '' : `,"user_id":${JSON.stringify(f.userId)}`;
    stream.write(
      `${prefix}${time()}${bindings},"request_id":${JSON.stringify(f.requestId)},"method":${JSON.stringify(f.method)},"path":${JSON.stringify(f.path)},"status":${f.status},"ms":${f.ms}${user},"msg":"request"${end}`,
    );
  };
}
