// What earlier imports in this process learnt, so that an unchanged re-import does not build, render
// and hash thousands of documents again (most of its time): per planned item, keyed by a hash of all
// its document is made of, the file it went to, its fingerprint and the blob its text was (at the
// provenance time of that import); per blob read while deciding, its content's fingerprint. Both are
// facts about pure functions of their keys (the mapping and the YAML writer are deterministic, a blob
// id names its bytes), so they never go stale within a process; a new build runs in a new process, with none.

/** What rendering an item gave: its file, fingerprint, and blob. */
export interface Rendered {
  path: string;
  fingerprint: string;
  oid: string;
}

export interface RenderMemo {
  rendered(source: string): Rendered | undefined;
  rememberRendered(source: string, r: Rendered): void;
  /** The fingerprint of a blob's content as the import computes it, for a blob read before whose document came from dbt. */
  contentFingerprint(oid: string): string | undefined;
  rememberContent(oid: string, fingerprint: string): void;
}

/**
 * Entries kept of each kind: a table's two take about 650 bytes of heap (measured), so at most ~13 MB,
 * and room for the 5,000-model projects issue 34 names four times over. The oldest go first.
 */
const LIMIT = 20_000;

function bounded<V>(limit: number) {
  const map = new Map<string, V>();
  return {
    get: (k: string) => map.get(k),
    set: (k: string, v: V) => {
      map.delete(k);
      map.set(k, v);
      if (map.size > limit) map.delete(map.keys().next().value!);
    },
  };
}

/** An empty memo; compose keeps one for the process. */
export function createRenderMemo(limit = LIMIT): RenderMemo {
  const rendered = bounded<Rendered>(limit);
  const content = bounded<string>(limit);
  return {
    rendered: rendered.get,
    rememberRendered: rendered.set,
    contentFingerprint: content.get,
    rememberContent: content.set,
  };
}
