// What chats read from other domains, declared here and implemented in src/compose.
import type { LineageFn } from './lineage.ts';
import type { SuggestionSources } from './suggestions.ts';

/** Who wrote a chat, as the accounts know them (src/auth owns the users table). */
export interface ChatUsers {
  /** Email addresses of the given users, by id. */
  emails(userIds: readonly string[]): Promise<Map<string, string>>;
}

/** SQL lineage (src/data), suggestion sources (knowledge) and the users' addresses (auth). */
export interface ChatSources {
  lineage: LineageFn;
  suggestions: SuggestionSources;
  users: ChatUsers;
}
