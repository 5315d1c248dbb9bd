// `node dist/main.js` (and `npm start`): load configuration, take the data folder's lock (SQLite), build the
// service, listen, and shut down gracefully on SIGTERM/SIGINT (a second signal ends the process at once).
// First, before the modules whose evaluation allocates: keeps V8's young generation small during start-up.
import { startUpDone } from './distribution/start-up-heap.ts';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { listen } from './server.ts';
import { DataDirLocked, lockDataDir } from './store/data-dir-lock.ts';
import { DatabaseUnreachable } from './store/open-service-store.ts';
import { SchemaNewerThanCode } from './store/schema-version.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
for (const warning of config.warnings) log.warn(warning);

/** Ends a start that must not go on, with the reason on stderr and in the log. */
function refuse(code: string, message: string, data: Record<string, unknown> = {}): never {
  log.fatal({ error_code: code, ...data }, message);
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

// On SQLite the data folder belongs to one process. On PostgreSQL replicas share it (knowledge takes its
// write lock in the database), so none holds it alone: runs a dead replica left behind are failed by the
// heartbeat sweep rather than at start.
const exclusiveStore = !config.databaseUrl;
if (exclusiveStore) {
  let lock;
  try {
    lock = lockDataDir(config.dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLocked)) throw err;
    refuse(err.code, err.message, { pid: err.pid });
  }
  process.on('exit', () => lock.release());
}
const app = await createApp(config, { log, exclusiveStore }).catch((err: unknown) => {
  if (err instanceof SchemaNewerThanCode || err instanceof DatabaseUnreachable) refuse(err.code, err.message);
  throw err;
});
const running = await listen(app, { host: config.host, port: config.port, graceMs: config.shutdownGraceMs });
// The handlers come before the line that says the server listens: whoever reads it may signal at once.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
startUpDone();
log.info({ url: running.url, data_dir: config.dataDir, ...(running.metricsUrl ? { metrics_url: `${running.metricsUrl}/metrics` } : {}) }, 'Sextant is listening');
process.stdout.write(`\nSextant is ready at ${config.baseUrl}  (API reference: ${config.baseUrl}/docs)\n\n`);
