// What chats read from other domains, declared here and implemented in src/compose.
import type { LineageFn } from './lineage.ts';
import type { SuggestionSources } from './suggestions.ts';

/** SQL lineage (src/data) and suggestion sources (knowledge). */
export interface ChatSources {
  lineage: LineageFn;
  suggestions: SuggestionSources;
}
