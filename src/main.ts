// `node dist/main.js` (and `npm start`): load configuration, take the data folder's lock, build the
// service, listen, and shut down gracefully on SIGTERM/SIGINT (a second signal ends the process at once).
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { listen } from './server.ts';
import { DataDirLocked, lockDataDir } from './store/data-dir-lock.ts';
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

// Serving from PostgreSQL comes with the asynchronous store; until then a server started with the
// variable would keep everything in SQLite while its operator believes otherwise.
if (config.databaseUrl) {
  refuse(
    'POSTGRES_STORE_NOT_SERVED',
    'SEXTANT_DATABASE_URL is set, but serving from the PostgreSQL store is not yet supported: this server would keep all data in SQLite. ' +
      'Unset it to serve from SQLite. `sextant-admin migrate --database-url ...` and `sextant-admin copy-store` already work (README "Moving to PostgreSQL").',
  );
}
let lock;
try {
  lock = lockDataDir(config.dataDir);
} catch (err) {
  if (!(err instanceof DataDirLocked)) throw err;
  refuse(err.code, err.message, { pid: err.pid });
}
process.on('exit', () => lock.release());
const app = await createApp(config, { log, exclusiveStore: true }).catch((err: unknown) => {
  if (err instanceof SchemaNewerThanCode) refuse(err.code, err.message);
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
log.info({ url: running.url, data_dir: config.dataDir }, 'Sextant is listening');
process.stdout.write(`\nSextant is ready at ${config.baseUrl}  (API reference: ${config.baseUrl}/docs)\n\n`);
