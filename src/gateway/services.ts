import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { UploadStore } from '../data/uploads/index.ts';
import type { Logger } from '../log.ts';
import type { SecretBox } from '../security/index.ts';
import type { Store } from '../store/index.ts';

/** Everything the composition root wires together and hands to the route tables. */
export interface Services {
  config: Config;
  clock: Clock;
  store: Store;
  log: Logger;
  secretBox: SecretBox;
  /** Chat uploads (files and extracted archives per chat session). */
  uploads: UploadStore;
  /** Aborted when the service shuts down, so long-lived streams can end cleanly. */
  shutdown: AbortSignal;
}
