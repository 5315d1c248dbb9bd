// What the queries of one request read alike from the store. A dashboard run is one request whose
// tiles are a dozen queries as one viewer on one connection: each used to read the connection (twice),
// the viewer's row-security facts, the warehouse relations and the knowledge snapshot again. Kept for
// the request only, so the next request sees any change made meanwhile, as it did before; within one
// request every tile is governed by the same facts.
import type { Role } from '../../auth/index.ts';
import { getConnection, type ConnectionView } from '../connections/index.ts';
import { loadRlsUser, type RlsUser } from '../rls/index.ts';
import { loadRelations, type WarehouseRelation } from '../sync/relations.ts';
import type { DataStore } from '../tables.ts';
import type { GovernanceKnowledge, TableDocsSource } from '../types.ts';

/** Reads shared by the queries of one request; make one per request with `requestReads()`. */
export interface RequestReads {
  connection(deps: { store: DataStore }, orgId: string, id: string): Promise<ConnectionView>;
  rlsUser(store: DataStore, orgId: string, user: { id: string; email: string; role: Role }): Promise<RlsUser>;
  /** The warehouse relations sync recorded for a connection (row security reads them). */
  relations(store: DataStore, orgId: string, connectionId: string): Promise<WarehouseRelation[]>;
  /** The knowledge governance reads: table docs at `commit` (default: the environment's head as of the request's first read) and targets. */
  governance(docs: Pick<TableDocsSource, 'governance'>, orgId: string, environmentId: string | undefined, commit: string | undefined): Promise<GovernanceKnowledge>;
}

/** Each read once for the request, however many of its queries ask (failures too: the same for each). */
export function requestReads(): RequestReads {
  const read = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, f: () => Promise<T>): Promise<T> => {
    let r = read.get(key) as Promise<T> | undefined;
    if (!r) read.set(key, (r = f()));
    return r;
  };
  return {
    connection: (deps, orgId, id) => once(JSON.stringify(['connection', orgId, id]), () => getConnection(deps, orgId, id)),
    rlsUser: (store, orgId, user) => once(JSON.stringify(['rls-user', orgId, user.id, user.email, user.role]), () => loadRlsUser(store, orgId, user)),
    relations: (store, orgId, connectionId) => once(JSON.stringify(['relations', orgId, connectionId]), () => loadRelations(store, orgId, connectionId)),
    governance: (docs, orgId, environmentId, commit) => once(JSON.stringify(['governance', orgId, environmentId ?? null, commit ?? null]), () => docs.governance(orgId, environmentId, commit)),
  };
}

/** Where a query reads its connection and facts: its request's reads when it has them, else the store. */
export const directReads: RequestReads = {
  connection: getConnection,
  rlsUser: loadRlsUser,
  relations: loadRelations,
  governance: (docs, orgId, environmentId, commit) => docs.governance(orgId, environmentId, commit),
};
