// The environment the person works in (admins and modelers): kept in local storage so it survives
// reloads, sent by the API client as `X-Service-Environment` on every request, and watched by the
// coloured bar that says where changes go. Absent means production.
import { useSyncExternalStore } from 'react';

export const ENVIRONMENT_HEADER = 'X-Service-Environment';
const KEY = 'sextant.environment';

export interface ActiveEnvironment {
  id: string;
  name: string;
  color: string;
}

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ActiveEnvironment | undefined } = { raw: null, value: undefined };

function readStorage(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The active environment, or undefined for production. */
export function activeEnvironment(): ActiveEnvironment | undefined {
  const raw = readStorage();
  if (raw === cached.raw) return cached.value;
  let value: ActiveEnvironment | undefined;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<ActiveEnvironment>) : undefined;
    value = parsed && typeof parsed.id === 'string' ? { id: parsed.id, name: String(parsed.name ?? parsed.id), color: String(parsed.color ?? '#888888') } : undefined;
  } catch {
    value = undefined;
  }
  cached = { raw, value };
  return value;
}

/** Switches into an environment, or back to production with undefined. */
export function setActiveEnvironment(env: ActiveEnvironment | undefined): void {
  try {
    if (env) localStorage.setItem(KEY, JSON.stringify({ id: env.id, name: env.name, color: env.color }));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled: the switch lasts for this page only.
  }
  for (const l of listeners) l();
}

/** The header for the active environment (none for production). */
export function environmentHeaders(): Record<string, string> {
  const env = activeEnvironment();
  return env ? { [ENVIRONMENT_HEADER]: env.id } : {};
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab switching changes this one too (the header follows storage).
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The active environment, re-rendering on a switch. */
export function useActiveEnvironment(): ActiveEnvironment | undefined {
  return useSyncExternalStore(subscribe, activeEnvironment);
}
