// The relationships a knowledge search adds to its hits: those on the shortest paths between the tables
// it found. A question's tables are often not neighbours ("customers who bought Electronics": customers
// and products, joined through orders and order_items), and a planner joins only along relationships
// it sees; the tables in between are then looked up by name (the offline model's `missingTables`).
import type { RelationshipDocument } from '../agent/ports.ts';

/** Longer paths join tables a question hardly means together; the planner refuses what it cannot tell apart. */
const MAX_HOPS = 3;

type Edge = { r: RelationshipDocument; to: string };
const endOf = (e: RelationshipDocument['from']) => `${e.connection}/${e.table}`;

// Built once per snapshot's relationship list: every question at one commit searches the same one.
const graphs = new WeakMap<readonly RelationshipDocument[], Map<string, Edge[]>>();

function graphOf(all: readonly RelationshipDocument[]): Map<string, Edge[]> {
  const cached = graphs.get(all);
  if (cached) return cached;
  const graph = new Map<string, Edge[]>();
  const add = (from: string, edge: Edge) => {
    const edges = graph.get(from);
    if (edges) edges.push(edge);
    else graph.set(from, [edge]);
  };
  for (const r of all) {
    add(endOf(r.from), { r, to: endOf(r.to) });
    add(endOf(r.to), { r, to: endOf(r.from) });
  }
  graphs.set(all, graph);
  return graph;
}

/** Hops from `start` to each table within MAX_HOPS. */
function distances(graph: Map<string, Edge[]>, start: string): Map<string, number> {
  const out = new Map([[start, 0]]);
  let frontier = [start];
  for (let d = 1; d <= MAX_HOPS && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const t of frontier) {
      for (const e of graph.get(t) ?? []) {
        if (out.has(e.to)) continue;
        out.set(e.to, d);
        next.push(e.to);
      }
    }
    frontier = next;
  }
  return out;
}

/**
 * The relationships of `all` on every shortest path (at most MAX_HOPS) between two of the `found`
 * tables (`connection/table`); a relationship between two found tables is such a path itself.
 */
export function pathRelationships(all: readonly RelationshipDocument[], found: ReadonlySet<string>): Set<RelationshipDocument> {
  const graph = graphOf(all);
  const tables = [...found].filter((t) => graph.has(t));
  const from = new Map(tables.map((t) => [t, distances(graph, t)]));
  const out = new Set<RelationshipDocument>();
  for (const [i, a] of tables.entries()) {
    const da = from.get(a)!;
    for (const b of tables.slice(i + 1)) {
      const db = from.get(b)!;
      const d = da.get(b);
      if (d === undefined) continue;
      // An edge u-v lies on a shortest path when a reaches u and v reaches b in the hops left.
      for (const [u, du] of da) {
        if (du >= d) continue;
        for (const e of graph.get(u)!) if (db.get(e.to) === d - du - 1) out.add(e.r);
      }
    }
  }
  return out;
}
