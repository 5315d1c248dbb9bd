// Where the CLI keeps its settings, and how flags, environment variables and the saved file combine.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SavedSettings {
  server?: string;
  token?: string;
  /** Active environment id; absent means production. */
  environment?: string;
}

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

/** `$SEXTANT_CONFIG_DIR/config.json`, else `$XDG_CONFIG_HOME/sextant/config.json`, else `~/.config/sextant/config.json`. */
export function settingsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env['SEXTANT_CONFIG_DIR']) return join(env['SEXTANT_CONFIG_DIR'], 'config.json');
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'sextant', 'config.json');
}

export function readSettings(path: string): SavedSettings {
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as SavedSettings;
}

/** Writes the settings file readable by its owner only: it holds a token. */
export function writeSettings(path: string, settings: SavedSettings): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(settings, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
}

export interface Effective {
  server: string;
  token: string | undefined;
  environment: string | undefined;
  /** Where the environment came from, for `env current` and `status`. */
  environmentSource: 'flag' | 'SERVICE_ENV' | 'saved' | 'production';
}

/**
 * Flags win over environment variables, which win over the saved file. The environment: `--env`,
 * then `SERVICE_ENV` (set but empty forces production), then the saved one.
 */
export function effectiveSettings(flags: { server?: string; token?: string; env?: string }, env: NodeJS.ProcessEnv, saved: SavedSettings): Effective {
  const server = (flags.server ?? env['SEXTANT_SERVER'] ?? saved.server ?? DEFAULT_SERVER).replace(/\/+$/, '');
  const token = flags.token ?? env['SEXTANT_TOKEN'] ?? saved.token;
  if (flags.env !== undefined) return { server, token, environment: flags.env || undefined, environmentSource: 'flag' };
  if (env['SERVICE_ENV'] !== undefined) return { server, token, environment: env['SERVICE_ENV'] || undefined, environmentSource: 'SERVICE_ENV' };
  if (saved.environment) return { server, token, environment: saved.environment, environmentSource: 'saved' };
  return { server, token, environment: undefined, environmentSource: 'production' };
}
