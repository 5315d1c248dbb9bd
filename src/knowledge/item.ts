import type { Kind } from './kinds.ts';

/** One knowledge item as the API shows it. `error` is set (and `data` null) for a file that no longer parses. */
export interface Item {
  kind: Kind;
  id: string;
  path: string;
  data: Record<string, unknown> | null;
  yaml: string;
  /** The blob id of its file: the HTTP ETag, and what If-Match names. */
  version: string;
  error?: string;
}
