// Entry point of the `sextant` binary and of the self-contained build.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
