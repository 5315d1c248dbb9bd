// `node dist/main.js` (and `npm start`): load configuration, take the data folder's lock, build the
// service, listen, and shut down gracefully on SIGTERM/SIGINT (a second signal ends the process at once).
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { listen } from './server.ts';
import { DataDirLocked, lockDataDir } from './store/data-dir-lock.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
for (const warning of config.warnings) log.warn(warning);
let lock;
try {
  lock = lockDataDir(config.dataDir);
} catch (err) {
  if (!(err instanceof DataDirLocked)) throw err;
  log.fatal({ code: err.code, pid: err.pid }, err.message);
  process.stderr.write(`\n${err.message}\n\n`);
  process.exit(1);
}
process.on('exit', () => lock.release());
const app = await createApp(config, { log });
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
