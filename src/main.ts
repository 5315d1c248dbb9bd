// `npm start`: load configuration, build the service, listen, and shut down gracefully on SIGTERM/SIGINT.
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { listen } from './server.ts';

const config = loadConfig();
const log = createLogger(config.logLevel);
for (const warning of config.warnings) log.warn(warning);
const app = await createApp(config, { log });
const running = await listen(app, { host: config.host, port: config.port, graceMs: config.shutdownGraceMs });
log.info({ url: running.url, data_dir: config.dataDir }, 'Sextant is listening');
process.stdout.write(`\nSextant is ready at ${config.baseUrl}  (API reference: ${config.baseUrl}/docs)\n\n`);

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
