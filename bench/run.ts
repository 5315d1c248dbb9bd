// Runs every benchmark listed here, one after the other (`npm run bench`). Each file exports `run`.
// `npm run bench -- chats` runs only the named ones.
import { run as chats } from './chats.ts';

const benches: Record<string, () => Promise<void>> = { chats };

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== bench ${name}`);
  await run();
}
