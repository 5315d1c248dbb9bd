// `npm run bench`: runs every benchmark listed here, one after the other.
const benches = ['./knowledge.ts'];

for (const file of benches) {
  process.stdout.write(`\n== ${file}\n`);
  await import(file);
}
