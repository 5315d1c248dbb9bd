// Entry point of the `sextant-admin` binary (bin/sextant-admin.js, `npm run migrate`).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
