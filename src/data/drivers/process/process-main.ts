// The entry of a query process (started by QueryProcess): runs the warehouse sessions the gateway
// asks for, one request at a time, at a lower CPU priority than the gateway so that a query that
// keeps every core busy still leaves the gateway its share.
import { setPriority } from 'node:os';
import { EngineError, messageOf, type EngineSession, type SessionLimits } from './engine-session.ts';
import type { Reply, Request } from './protocol.ts';
import { startWatchdog } from './watchdog.ts';

const MB = 1024 * 1024;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '';
const memoryBytes = Number(arg('memory-mb')) * MB;
// DuckDB's own limit sits well below the process's, so ordinary big queries end with its clear "out
// of memory" (or spill) and only what escapes its accounting meets the watchdog.
const limits: SessionLimits = { engineBytes: memoryBytes / 2, tempParent: arg('temp'), tempBytes: memoryBytes * 4 };

try {
  setPriority(10);
} catch {
  // Some platforms refuse; the process then runs at the gateway's priority.
}
startWatchdog({ maxRssBytes: memoryBytes, tempDir: arg('temp') });

let session: EngineSession | undefined;

async function closeSession(): Promise<void> {
  const s = session;
  session = undefined;
  await s?.close();
}

const engines = { sqlite: () => import('./sqlite-session.ts'), duckdb: () => import('./duckdb-session.ts') };

async function queryUploads(req: Extract<Request, { op: 'uploads' }>) {
  const { runUploadQuery } = await import('../../uploads/upload-session.ts');
  const { UploadQueryRefused } = await import('../../uploads/errors.ts');
  const own = { maxRows: req.maxRows, maxXlsxBytes: req.maxXlsxBytes, engineBytes: limits.engineBytes, tempParent: arg('temp') };
  try {
    return { result: await runUploadQuery(req.sessionDir, req.sql, own) };
  } catch (err) {
    if (err instanceof UploadQueryRefused) return { refused: err.detail };
    throw err;
  }
}

async function handle(req: Request): Promise<unknown> {
  if (req.op === 'warm') return engines[req.engine]().then((m) => ('prepareSpare' in m ? m.prepareSpare(limits) : undefined)).then(() => null);
  if (req.op === 'uploads') return queryUploads(req);
  if (req.op === 'open') {
    await closeSession();
    if (req.engine === 'sqlite') session = (await engines.sqlite()).openSqliteSession(req.path ?? '', req.maxRecursion);
    // Each DuckDB session spills into a folder no earlier session used or left anything in (duckdb-instances.ts).
    else session = await (await engines.duckdb()).openDuckDbSession(req, limits);
    return { defaultSchema: session.defaultSchema };
  }
  const s = session;
  if (!s) throw new EngineError('unavailable', 'No warehouse session is open');
  switch (req.op) {
    case 'introspect':
      return s.introspect(req.schemas);
    case 'ping':
      return s.ping().then(() => null);
    case 'query':
      return { columns: await s.query(req.sql, req.batchSize, req.params ?? []) };
    case 'next': {
      const { rows, done } = await s.next();
      return { rows: JSON.stringify(rows), done };
    }
    case 'release':
      return s.release().then(() => null);
    case 'describe':
      if (!s.describe) throw new EngineError('failed', 'This warehouse cannot describe a statement');
      return s.describe(req.sql);
    case 'run':
      if (!s.run) throw new EngineError('failed', 'This warehouse cannot run a statement');
      return s.run(req.sql);
    case 'close':
      return closeSession().then(() => null);
  }
}

// Requests run in arrival order, each after the previous one settled.
let queue: Promise<void> = Promise.resolve();
process.on('message', (msg: { id: number; req: Request }) => {
  queue = queue.then(async () => {
    let reply: Reply;
    try {
      reply = { id: msg.id, ok: true, value: await handle(msg.req) };
    } catch (err) {
      reply = { id: msg.id, ok: false, error: { kind: err instanceof EngineError ? err.kind : 'failed', message: messageOf(err) } };
    }
    process.send?.(reply);
  });
});
// The gateway closed the channel (shutdown): nothing more will be asked.
process.on('disconnect', () => process.exit(0));
