// A process that logs through the default destination (stdout in batches) and ends in the way named
// by argv[2]: `exit` (process.exit right after logging) or `drain` (its event loop runs empty).
import { createLogger } from '../../src/log.ts';

const log = createLogger('info');
const count = Number(process.argv[3] ?? 3);
for (let i = 0; i < count; i++) log.info({ i }, 'line');
if (process.argv[2] === 'exit') process.exit(0);
