// The built gateway's entry (dist/main.js, bundle.ts): src/main.ts imported once V8's young generation is
// kept small for start-up (start-up-heap.ts). main.ts imports that module first too, which is enough
// where each module is a file of its own; in the bundle, the chunks main.ts shares with modules loaded on
// first use are imported, and evaluated, before any of main.ts's own code, so the flag is set here first.
import './start-up-heap.ts';

await import('../main.ts');
