// List, get, create, update and delete of knowledge items, each write one commit by the acting user.
// An item's version is its file's blob id: reads return it, and writes given `ifMatch` (HTTP If-Match)
// are refused when the item has another version by then. A save without it is based on the version
// the item had when the save arrived: if another save landed in between, the two are merged field by
// field, or the later one gets a conflict; an edit is never silently lost.
import type { Principal } from '../auth/index.ts';
import { commitChanges, readFileVersion, resolveRef } from '../git/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { EditConflict, ItemExists, ItemNotFound, VersionMismatch } from './errors.ts';
import { checkedId, checkIdFields, normalizeIdFields, requireIdFields } from './item-id.ts';
import { checkItemShape, checkItemSize } from './item-limits.ts';
import type { Item } from './item.ts';
import { KIND_DEFS, slugify, type Kind } from './kinds.ts';
import { mergeFields } from './merge-fields.ts';
import { mirrorAfterChange } from './mirror.ts';
import { authorOf, readScope, writeScope, type Scope } from './scope.ts';
import { validateItem } from './validate-item.ts';

export type { Item } from './item.ts';
import { parseYaml, renderYaml, updateYaml } from './yaml-doc.ts';

/** The versions a write accepts: HTTP If-Match, parsed (`*`: any existing version). */
export type IfMatch = string[] | '*';

/** Builds an item from a file's text and blob id. */
export function toItem(kind: Kind, id: string, path: string, text: string, version: string): Item {
  const { value, error } = parsedBlob(text, version);
  const ok = !error && value !== null && typeof value === 'object' && !Array.isArray(value);
  return { kind, id, path, data: ok ? (value as Record<string, unknown>) : null, yaml: text, version, ...(ok ? {} : { error: error ?? 'not a YAML mapping' }) };
}

/** Parsed files by blob id, which names their text for good (the bound keeps the cache small). */
const parsed = new Map<string, { value: unknown; error?: string }>();
const PARSED_MAX = 2_000;

/**
 * A file's YAML parsed, from the cache when the blob was parsed before: every question of an
 * evaluation run reads the knowledge of the same commit, and parsing it again each time was an
 * eighth of a question's CPU. A copy goes out, so a caller changing its item changes no other.
 */
function parsedBlob(text: string, blob: string): { value: unknown; error?: string } {
  if (!/^[0-9a-f]{40,64}$/.test(blob)) return parseYaml(text);
  let hit = parsed.get(blob);
  if (!hit) {
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(blob, (hit = parseYaml(text)));
  }
  return { ...hit, value: structuredClone(hit.value) };
}

/** One item, or 404. */
export async function getItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, rawId: string): Promise<Item & { commit: string }> {
  const id = checkedId(kind, rawId, ['path', 'id']);
  const path = KIND_DEFS[kind].pathOf(id);
  const scope = await readScope(deps, p, envId);
  const commit = await resolveRef({ repo: scope.repo, ref: scope.branch });
  const file = commit ? await readFileVersion({ repo: scope.repo, ref: commit, path }) : undefined;
  if (!file) throw new ItemNotFound(path);
  return { ...toItem(kind, id, path, file.text, file.oid), commit: commit! };
}

/** Creates an item; its id comes from its content (tables, relationships, skills, evaluations), `id`, or its title. */
export async function createItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, raw: unknown, id?: string) {
  const def = KIND_DEFS[kind];
  checkItemShape(raw);
  const data = normalizeIdFields(kind, raw);
  const record = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  checkIdFields(kind, record);
  requireIdFields(kind, record);
  const named = def.idOfData(record);
  // A bad id is reported where it came from: the body field that names it, or the query.
  const base = checkedId(kind, named?.id ?? id ?? slugify(def.titleOf(record)), named ? ['body', named.field] : ['query', 'id']);
  const explicit = named !== undefined || id !== undefined;
  validateItem(kind, base, data);
  const scope = await writeScope(deps, p, envId);
  let chosen = base;
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: `Create ${def.pathOf(base)}`,
    changes: async (parent) => {
      const exists = async (candidate: string) => parent !== undefined && (await readFileVersion({ repo: scope.repo, ref: parent, path: def.pathOf(candidate) })) !== undefined;
      // A title-derived id gets a suffix instead of failing; an explicit one must be free.
      for (let n = 2; await exists(chosen); n++) {
        if (explicit) throw new ItemExists(def.pathOf(chosen));
        chosen = `${base}-${n}`;
      }
      return [{ path: def.pathOf(chosen), content: checkItemSize(renderYaml(validateItem(kind, chosen, data))) }];
    },
  });
  await mirrorAfterChange(deps, scope);
  return { ...(await itemAtCommit(scope, kind, chosen, result.oid)), commit: result.oid };
}

/** Replaces an item's content, keeping comments and key order of what did not change. */
export async function updateItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, rawId: string, data: unknown, ifMatch?: IfMatch) {
  const id = checkedId(kind, rawId, ['path', 'id']);
  const path = KIND_DEFS[kind].pathOf(id);
  const value = validateItem(kind, id, data);
  const scope = await writeScope(deps, p, envId);
  // Without If-Match, the save is based on what the item was when it arrived.
  const arrived = ifMatch ? undefined : await readFileVersion({ repo: scope.repo, ref: scope.branch, path });
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: `Update ${path}`,
    changes: async (parent) => {
      const current = parent ? await readFileVersion({ repo: scope.repo, ref: parent, path }) : undefined;
      if (ifMatch && !matches(ifMatch, current?.oid)) throw new VersionMismatch(path, current?.oid ?? null);
      if (!current) throw new ItemNotFound(path);
      const next = arrived && arrived.oid !== current.oid ? mergeWithLanded(kind, id, path, arrived.text, current, value) : value;
      return [{ path, content: checkItemSize(updateYaml(current.text, next)) }];
    },
  });
  if (result.changed) await mirrorAfterChange(deps, scope);
  return { ...(await itemAtCommit(scope, kind, id, result.oid)), commit: result.oid };
}

/** Deletes an item (a commit removing its file); with `ifMatch`, only the version named. */
export async function deleteItem(deps: KnowledgeDeps, p: Principal, envId: string | undefined, kind: Kind, rawId: string, ifMatch?: IfMatch): Promise<{ commit: string }> {
  const id = checkedId(kind, rawId, ['path', 'id']);
  const path = KIND_DEFS[kind].pathOf(id);
  const scope = await writeScope(deps, p, envId);
  const result = await commitChanges({
    repo: scope.repo,
    branch: scope.branch,
    author: await authorOf(deps, p),
    message: `Delete ${path}`,
    changes: async (parent) => {
      const current = parent ? await readFileVersion({ repo: scope.repo, ref: parent, path }) : undefined;
      if (ifMatch && !matches(ifMatch, current?.oid)) throw new VersionMismatch(path, current?.oid ?? null);
      if (!current) throw new ItemNotFound(path);
      return [{ path, content: null }];
    },
  });
  await mirrorAfterChange(deps, scope);
  return { commit: result.oid };
}

/** The file path of an item id (in Unicode form C), or 422 for an id that cannot be a file. */
export function checkedPath(kind: Kind, id: string): string {
  return KIND_DEFS[kind].pathOf(checkedId(kind, id, ['path', 'id']));
}

function matches(ifMatch: IfMatch, version: string | undefined): boolean {
  return version !== undefined && (ifMatch === '*' || ifMatch.includes(version));
}

// Another save landed between this one's arrival and its turn: merge field by field, or 409.
function mergeWithLanded(kind: Kind, id: string, path: string, baseText: string, current: { text: string; oid: string }, mine: Record<string, unknown>) {
  const base = parseYaml(baseText).value;
  const now = parseYaml(current.text).value;
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMap(base) || !isMap(now)) throw new EditConflict(path, current.oid, ['(item)']);
  const merged = mergeFields(base, now, mine);
  if (!merged.ok) throw new EditConflict(path, current.oid, merged.conflicts);
  try {
    return validateItem(kind, id, merged.value);
  } catch (err) {
    // Two valid halves that make an invalid whole are a conflict too.
    if (err instanceof Error && err.name === 'ValidationFailed') throw new EditConflict(path, current.oid, ['(item)']);
    throw err;
  }
}

async function itemAtCommit(scope: Scope, kind: Kind, id: string, commit: string): Promise<Item> {
  const path = KIND_DEFS[kind].pathOf(id);
  const file = await readFileVersion({ repo: scope.repo, ref: commit, path });
  return toItem(kind, id, path, file?.text ?? '', file?.oid ?? '');
}

