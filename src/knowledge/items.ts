// List, get, create, update and delete of knowledge items, each write one commit by the acting user.
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import { commitChanges, readBlobs, readFile, readTree, resolveRef } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { ItemExists, ItemNotFound } from './errors.ts';
import { KIND_DEFS, slugify, type Kind } from './kinds.ts';
import { mirrorAfterChange } from './mirror.ts';
import { authorOf, readScope, writeScope, type Scope } from './scope.ts';
import { validateItem } from './validate-item.ts';
import { parseYaml, renderYaml, updateYaml } from './yaml-doc.ts';

/** One knowledge item as the API shows it. `error` is set (and `data` null) for a file that no longer parses. */
export interface Item {
  kind: Kind;
  id: string;
  path: string;
  data: Record<string, unknown> | null;
  yaml: string;
  error?: string;
}

/** Items of a kind at a commit or branch of a repository (no permission check). */
export async function itemsAt(scope: Pick<Scope, 'repo'>, ref: string, kind: Kind): Promise<Item[]> {
  const def = KIND_DEFS[kind];
  const files = (await readTree({ repo: scope.repo, ref, prefix: kind })).filter((f) => def.idOfPath(f.path) !== undefined);
  const texts = await readBlobs(scope.repo, files.map((f) => f.oid));
  return files.map((f, i) => toItem(kind, def.idOfPath(f.path)!, f.path, texts[i]!));
}

/** Builds an item from a file's text. */
export function toItem(kind: Kind, id: string, path: string, text: string): Item {
  const { value, error } = parseYaml(text);
  const ok = !error && value !== null && typeof value === 'object' && !Array.isArray(value);
  return { kind, id, path, data: ok ? (value as Record<string, unknown>) : null, yaml: text, ...(ok ? {} : { error: error ?? 'not a YAML mapping' }) };
}

/** Every item of a kind visible to the caller, and the commit they were read at. */
export async function listItems(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind): Promise<{ commit: string | null; items: Item[] }> {
  const scope = await readScope(deps, p, envId);
  const commit = await resolveRef({ repo: scope.repo, ref: scope.branch });
  return { commit: commit ?? null, items: commit ? await itemsAt(scope, commit, kind) : [] };
}

/** One item, or 404. */
export async function getItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, id: string): Promise<Item & { commit: string }> {
  const path = checkedPath(kind, id);
  const scope = await readScope(deps, p, envId);
  const commit = await resolveRef({ repo: scope.repo, ref: scope.branch });
  const text = commit ? await readFile({ repo: scope.repo, ref: commit, path }) : undefined;
  if (text === undefined) throw new ItemNotFound(path);
  return { ...toItem(kind, id, path, text), commit: commit! };
}

/** Creates an item; its id comes from its content (tables, relationships, skills, evaluations), `id`, or its title. */
export async function createItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, data: unknown, id?: string) {
  const def = KIND_DEFS[kind];
  const named = data && typeof data === 'object' ? def.idOfData(data as Record<string, unknown>) : undefined;
  const explicit = named?.id ?? id;
  const base = explicit ?? slugify(def.titleOf((data ?? {}) as Record<string, unknown>));
  if (!def.validId(base)) throw new ValidationFailed([{ loc: ['query', 'id'], msg: `invalid ${kind} id`, type: 'value_error' }]);
  validateItem(kind, base, data);
  const scope = await writeScope(deps, p, envId);
  let chosen = base;
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: authorOf(deps, p),
    message: `Create ${def.pathOf(base)}`,
    changes: async (parent) => {
      const exists = async (candidate: string) => parent !== undefined && (await readFile({ repo: scope.repo, ref: parent, path: def.pathOf(candidate) })) !== undefined;
      // A title-derived id gets a suffix instead of failing; an explicit one must be free.
      for (let n = 2; await exists(chosen); n++) {
        if (explicit) throw new ItemExists(def.pathOf(chosen));
        chosen = `${base}-${n}`;
      }
      return [{ path: def.pathOf(chosen), content: renderYaml(validateItem(kind, chosen, data)) }];
    },
  });
  await mirrorAfterChange(deps, scope);
  return { ...(await itemAtCommit(scope, kind, chosen, result.oid)), commit: result.oid };
}

/** Replaces an item's content, keeping comments and key order of what did not change. */
export async function updateItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, id: string, data: unknown) {
  const path = checkedPath(kind, id);
  const value = validateItem(kind, id, data);
  const scope = await writeScope(deps, p, envId);
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: authorOf(deps, p),
    message: `Update ${path}`,
    changes: async (parent) => {
      const current = parent ? await readFile({ repo: scope.repo, ref: parent, path }) : undefined;
      if (current === undefined) throw new ItemNotFound(path);
      return [{ path, content: updateYaml(current, value) }];
    },
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
  return { ...(await itemAtCommit(scope, kind, id, result.oid)), commit: result.oid };
}

/** Deletes an item (a commit removing its file). */
export async function deleteItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, id: string): Promise<{ commit: string }> {
  const path = checkedPath(kind, id);
  const scope = await writeScope(deps, p, envId);
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: authorOf(deps, p),
    message: `Delete ${path}`,
    changes: async (parent) => {
      if (!parent || (await readFile({ repo: scope.repo, ref: parent, path })) === undefined) throw new ItemNotFound(path);
      return [{ path, content: null }];
    },
  });
  await mirrorAfterChange(deps, scope);
  return { commit: result.oid };
}

/** The file path of an item id, or 422 for a malformed id. */
export function checkedPath(kind: Kind, id: string): string {
  const def = KIND_DEFS[kind];
  if (!def.validId(id)) throw new ValidationFailed([{ loc: ['path', 'id'], msg: `invalid ${kind} id`, type: 'value_error' }]);
  return def.pathOf(id);
}

async function itemAtCommit(scope: Scope, kind: Kind, id: string, commit: string): Promise<Item> {
  const path = KIND_DEFS[kind].pathOf(id);
  return toItem(kind, id, path, (await readFile({ repo: scope.repo, ref: commit, path })) ?? '');
}
