// Child process of the kill -9 test in test/data/demo/move-demo-warehouse.test.ts: moves the demo
// warehouse of the store at argv[2] into the root at argv[3], and is killed at some instant.
import { FakeClock } from '../../src/clock.ts';
import { moveDemoWarehouse } from '../../src/data/index.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';

const [file, root] = process.argv.slice(2);
const store = openStore({ file: file! });
await moveDemoWarehouse({ store: sqliteExecutor(store.db), clock: new FakeClock(), log: createLogger('silent'), fileRoots: [root!] }, 'demo');
store.close();
