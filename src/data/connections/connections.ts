// Warehouse connections of an organization. Secrets (the password) are sealed with the one secret
// box and never leave this module except to open a driver.
import type { Clock } from '../../clock.ts';
import type { CheckHost } from '../../outbound/index.ts';
import { Conflict, ValidationFailed } from '../../errors.ts';
import type { SecretBox } from '../../security/index.ts';
import { byteOrder } from '../../store/index.ts';
import type { ConnectionSettings } from '../drivers/driver.ts';
import { DRIVERS, type ConnectionType } from '../drivers/registry.ts';
import { ConnectionNotFound } from '../errors.ts';
import type { ConnectionRow, DataStore } from '../tables.ts';
import { confineWarehousePath } from './confine-path.ts';
import { checkWarehouseHost } from './warehouse-host.ts';

/** Non-secret settings as the API shows them. */
export type PublicSettings = Omit<ConnectionSettings, 'password'>;

/** A connection as the API returns it: never the password, only whether one is set. */
export interface ConnectionView {
  id: string;
  name: string;
  type: ConnectionType;
  settings: PublicSettings;
  has_password: boolean;
  created_at: number;
  updated_at: number;
}

export interface ConnectionInput {
  id?: string;
  name: string;
  type: ConnectionType;
  settings: PublicSettings;
  /** Undefined keeps the stored password on update; null removes it. */
  password?: string | null;
}

type Row = Omit<ConnectionRow, 'type'> & { type: ConnectionType };

export interface ConnectionDeps {
  store: DataStore;
  clock: Clock;
  secretBox: SecretBox;
  /** Roots of the organizations' warehouse folders (`<root>/<org_id>/`); relative paths resolve there. */
  fileRoots: string[];
  /** The outbound address policy for warehouse hosts (SEXTANT_OUTBOUND_ALLOW); without it only public addresses pass. */
  checkHost?: CheckHost | undefined;
}

const view = (r: Row): ConnectionView => ({
  id: r.id,
  name: r.name,
  type: r.type,
  settings: JSON.parse(r.settings) as PublicSettings,
  has_password: r.secret_sealed !== null,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

async function getRow(store: DataStore, orgId: string, id: string): Promise<Row> {
  const row = await store.one(store.db.selectFrom('connections').selectAll().where('org_id', '=', orgId).where('id', '=', id));
  if (!row) throw new ConnectionNotFound();
  return row as Row;
}

/** Checks the settings a type needs and confines file paths to the organization's warehouse folders. */
async function normalize(deps: ConnectionDeps, orgId: string, input: Pick<ConnectionInput, 'type' | 'settings'>): Promise<PublicSettings> {
  const s = { ...input.settings };
  if (DRIVERS[input.type].kind === 'file') {
    s.path = confineWarehousePath(deps.fileRoots, orgId, s.path);
  } else if (!s.host) {
    throw new ValidationFailed([{ loc: ['body', 'settings', 'host'], msg: 'Field required for server warehouses', type: 'value_error' }]);
  } else {
    // Resolved and checked, never connected to; the name as typed is stored and checked again at connect.
    await checkWarehouseHost(deps.checkHost, s.host);
  }
  return s;
}

/** Lists an organization's connections by name (by its bytes, as on SQLite, whatever PostgreSQL's collation). */
export async function listConnections({ store }: { store: DataStore }, orgId: string): Promise<ConnectionView[]> {
  const rows = await store.all(store.db.selectFrom('connections').selectAll().where('org_id', '=', orgId).orderBy(byteOrder(store, 'name')).orderBy(byteOrder(store, 'id')));
  return (rows as Row[]).map(view);
}

/** One connection of the organization, or ConnectionNotFound. */
export async function getConnection({ store }: { store: DataStore }, orgId: string, id: string): Promise<ConnectionView> {
  return view(await getRow(store, orgId, id));
}

/** Creates a connection; the id defaults to a slug of the name. */
export async function createConnection(deps: ConnectionDeps, orgId: string, userId: string | null, input: ConnectionInput): Promise<ConnectionView> {
  const settings = await normalize(deps, orgId, input);
  const id = input.id ?? (input.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'connection');
  const now = deps.clock.now();
  const sealed = input.password ? deps.secretBox.seal(JSON.stringify({ password: input.password })) : null;
  const { store } = deps;
  const res = await store.run(
    store.db
      .insertInto('connections')
      .values({ org_id: orgId, id, name: input.name, type: input.type, settings: JSON.stringify(settings), secret_sealed: sealed, created_by: userId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['org_id', 'id']).doNothing()),
  );
  if (res.changes !== 1) throw new Conflict(`A connection with id ${id} already exists`, 'CONNECTION_EXISTS');
  return getConnection(deps, orgId, id);
}

/** Changes name, settings or password; the type stays. */
export async function updateConnection(
  deps: ConnectionDeps,
  orgId: string,
  id: string,
  patch: { name?: string; settings?: PublicSettings; password?: string | null },
): Promise<ConnectionView> {
  const { store } = deps;
  const { type } = await getRow(store, orgId, id);
  const changes: Partial<ConnectionRow> = { updated_at: deps.clock.now() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.settings) changes.settings = JSON.stringify(await normalize(deps, orgId, { type, settings: patch.settings }));
  if (patch.password !== undefined) changes.secret_sealed = patch.password === null ? null : deps.secretBox.seal(JSON.stringify({ password: patch.password }));
  // Only the columns the patch names are written, so two admins' patches of different fields both stay;
  // a connection deleted since the read stays deleted.
  const res = await store.run(store.db.updateTable('connections').set(changes).where('org_id', '=', orgId).where('id', '=', id));
  if (res.changes !== 1) throw new ConnectionNotFound();
  return getConnection(deps, orgId, id);
}

/** Deletes a connection or throws ConnectionNotFound. */
export async function deleteConnection({ store }: Pick<ConnectionDeps, 'store'>, orgId: string, id: string): Promise<void> {
  const res = await store.run(store.db.deleteFrom('connections').where('org_id', '=', orgId).where('id', '=', id));
  if (res.changes !== 1) throw new ConnectionNotFound();
}

/** The full settings, password unsealed, to open a driver. */
export async function connectionSecrets(
  deps: Pick<ConnectionDeps, 'store' | 'secretBox'>,
  orgId: string,
  id: string,
): Promise<{ view: ConnectionView; settings: ConnectionSettings }> {
  const row = await getRow(deps.store, orgId, id);
  const v = view(row);
  const secret = row.secret_sealed ? (JSON.parse(deps.secretBox.open(row.secret_sealed)) as { password?: string }) : {};
  return { view: v, settings: { ...v.settings, ...(secret.password !== undefined ? { password: secret.password } : {}) } };
}
