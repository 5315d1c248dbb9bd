// V8's young generation during start-up. Start-up allocates much that lives on (modules, schemas, route
// tables), so every scavenge finds most of the young generation alive and V8 doubles it, up to 2 x 16 MB:
// an idle gateway kept ~15 MB of it for nothing (issue 38). While the service starts, the growth factor
// is 1 (the young generation stays at its initial size and what lives on is promoted); once it listens,
// V8's own default (2) is back, so that the request path grows it as before. This module sets the factor
// when it is evaluated: the built gateway's loader (run-script.ts) imports it before it compiles the
// start-up chunk and loads its imports, and main.ts imports it first (tsx, the per-file build).
import { setFlagsFromString } from 'node:v8';

/** V8's default growth factor of the young generation (`node --v8-options`). */
const DEFAULT_GROWTH_FACTOR = 2;
const START_UP_FLAG = '--semi-space-growth-factor=1';

setFlagsFromString(START_UP_FLAG);

/** Ends start-up: the young generation grows again as V8 sees fit. */
export function startUpDone(): void {
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}

/**
 * `make()` run with start-up's flag, once start-up is done. V8 keeps a hash of its flags in the code it
 * caches and rejects a cache made under other values: code cached after start-up is cached as at start-up.
 */
export function asAtStartUp<T>(make: () => T): T {
  setFlagsFromString(START_UP_FLAG);
  try {
    return make();
  } finally {
    startUpDone();
  }
}
