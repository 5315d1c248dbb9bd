// Which connection a query runs on when its caller names none: the organization's only one.
import { ValidationFailed } from '../../errors.ts';
import type { DataStore } from '../tables.ts';
import { listConnections } from './connections.ts';

/** `connectionId` when given, else the organization's only connection; 422 on `body.connection_id` otherwise. */
export async function connectionToQuery(deps: { store: DataStore }, orgId: string, connectionId: string | undefined): Promise<string> {
  if (connectionId) return connectionId;
  const all = await listConnections(deps, orgId);
  if (all.length === 1) return all[0]!.id;
  throw new ValidationFailed([{ loc: ['body', 'connection_id'], msg: all.length === 0 ? 'No connection exists in this organization' : 'Field required when the organization has several connections', type: 'missing' }]);
}
