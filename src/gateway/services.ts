import type { LineageFn, SuggestionSources } from '../chats/index.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
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
  /** Aborted when the service shuts down, so long-lived streams can end cleanly. */
  shutdown: AbortSignal;
  /** What chats read from other domains: SQL lineage (src/data) and suggestion sources (knowledge). */
  chatSources: ChatSources;
}

export interface ChatSources {
  lineage: LineageFn;
  suggestions: SuggestionSources;
}
