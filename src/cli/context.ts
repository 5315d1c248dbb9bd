import { ApiClient } from './http.ts';
import type { Output } from './output.ts';
import { effectiveSettings, readSettings, settingsPath, writeSettings, type Effective, type SavedSettings } from './settings.ts';

/** What every command gets: the API client, effective settings, the saved file and the output. */
export interface CommandContext {
  client: ApiClient;
  flags: GlobalFlags;
  settings: Effective;
  saved: SavedSettings;
  save(next: SavedSettings): void;
  out: Output;
  env: NodeJS.ProcessEnv;
}

export interface GlobalFlags {
  server?: string;
  token?: string;
  env?: string;
  json?: boolean;
}

export function makeContext(flags: GlobalFlags, out: Output, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const path = settingsPath(env);
  const saved = readSettings(path);
  const settings = effectiveSettings(flags, env, saved);
  return {
    client: new ApiClient(settings),
    flags,
    settings,
    saved,
    save: (next) => writeSettings(path, next),
    out,
    env,
  };
}
