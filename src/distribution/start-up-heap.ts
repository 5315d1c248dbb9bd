// V8's young generation during start-up. Start-up allocates much that lives on (modules, schemas, route
// tables), so every scavenge finds most of the young generation alive and V8 doubles it, up to 2 x 16 MB:
// an idle gateway kept ~15 MB of it for nothing (issue 38). While the service starts, the growth factor
// is 1 (the young generation stays at its initial size and what lives on is promoted); once it listens,
// V8's own default (2) is back, so that the request path grows it as before. This module sets the factor
// when it is evaluated: main.ts imports it first, before the modules whose evaluation allocates.
import { setFlagsFromString } from 'node:v8';

/** V8's default growth factor of the young generation (`node --v8-options`). */
const DEFAULT_GROWTH_FACTOR = 2;

setFlagsFromString('--semi-space-growth-factor=1');

/** Ends start-up: the young generation grows again as V8 sees fit. */
export function startUpDone(): void {
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}
