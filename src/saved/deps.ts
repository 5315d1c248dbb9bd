// What the saved-questions domain needs, built once by src/compose.
import type { Clock } from '../clock.ts';
import type { Executor } from '../store/index.ts';
import type { SavedPorts } from './ports.ts';

export interface SavedDeps {
  store: Executor;
  clock: Clock;
  ports: SavedPorts;
}
