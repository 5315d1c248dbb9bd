// Warehouse connections of an organization. Secrets (the password) are sealed with the one secret
// box and never leave this module except to open a driver.
import type { Clock } from '../../clock.ts';
import { Conflict, ValidationFailed } from '../../errors.ts';
import type { SecretBox } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import type { ConnectionSettings } from '../drivers/driver.ts';
import { DRIVERS, type ConnectionType } from '../drivers/registry.ts';
import { ConnectionNotFound } from '../errors.ts';
import { confineWarehousePath } from './confine-path.ts';

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

interface Row {
  org_id: string;
  id: string;
  name: string;
  type: ConnectionType;
  settings: string;
  secret_sealed: string | null;
  created_at: number;
  updated_at: number;
}

export interface ConnectionDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  /** Roots of the organizations' warehouse folders (`<root>/<org_id>/`); relative paths resolve there. */
  fileRoots: string[];
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

function getRow(db: Db, orgId: string, id: string): Row {
  const row = db.prepare('SELECT * FROM connections WHERE org_id = ? AND id = ?').get(orgId, id) as Row | undefined;
  if (!row) throw new ConnectionNotFound();
  return row;
}

/** Checks the settings a type needs and confines file paths to the organization's warehouse folders. */
function normalize(deps: ConnectionDeps, orgId: string, input: Pick<ConnectionInput, 'type' | 'settings'>): PublicSettings {
  const s = { ...input.settings };
  if (DRIVERS[input.type].kind === 'file') {
    s.path = confineWarehousePath(deps.fileRoots, orgId, s.path);
  } else if (!s.host) {
    throw new ValidationFailed([{ loc: ['body', 'settings', 'host'], msg: 'Field required for server warehouses', type: 'value_error' }]);
  }
  return s;
}

/** Lists an organization's connections. */
export function listConnections({ db }: { db: Db }, orgId: string): ConnectionView[] {
  return (db.prepare('SELECT * FROM connections WHERE org_id = ? ORDER BY name, id').all(orgId) as Row[]).map(view);
}

/** One connection of the organization, or ConnectionNotFound. */
export function getConnection({ db }: { db: Db }, orgId: string, id: string): ConnectionView {
  return view(getRow(db, orgId, id));
}

/** Creates a connection; the id defaults to a slug of the name. */
export function createConnection(deps: ConnectionDeps, orgId: string, userId: string | null, input: ConnectionInput): ConnectionView {
  const settings = normalize(deps, orgId, input);
  const id = input.id ?? (input.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'connection');
  const now = deps.clock.now();
  const sealed = input.password ? deps.secretBox.seal(JSON.stringify({ password: input.password })) : null;
  const res = deps.db
    .prepare(
      `INSERT INTO connections (org_id, id, name, type, settings, secret_sealed, created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (org_id, id) DO NOTHING`,
    )
    .run(orgId, id, input.name, input.type, JSON.stringify(settings), sealed, userId, now, now);
  if (res.changes !== 1) throw new Conflict(`A connection with id ${id} already exists`, 'CONNECTION_EXISTS');
  return getConnection(deps, orgId, id);
}

/** Changes name, settings or password; the type stays. */
export function updateConnection(
  deps: ConnectionDeps,
  orgId: string,
  id: string,
  patch: { name?: string; settings?: PublicSettings; password?: string | null },
): ConnectionView {
  const row = getRow(deps.db, orgId, id);
  const settings = patch.settings ? normalize(deps, orgId, { type: row.type, settings: patch.settings }) : (JSON.parse(row.settings) as PublicSettings);
  const sealed =
    patch.password === undefined ? row.secret_sealed : patch.password === null ? null : deps.secretBox.seal(JSON.stringify({ password: patch.password }));
  deps.db
    .prepare('UPDATE connections SET name = ?, settings = ?, secret_sealed = ?, updated_at = ? WHERE org_id = ? AND id = ?')
    .run(patch.name ?? row.name, JSON.stringify(settings), sealed, deps.clock.now(), orgId, id);
  return getConnection(deps, orgId, id);
}

/** Deletes a connection or throws ConnectionNotFound. */
export function deleteConnection({ db }: Pick<ConnectionDeps, 'db'>, orgId: string, id: string): void {
  if (db.prepare('DELETE FROM connections WHERE org_id = ? AND id = ?').run(orgId, id).changes !== 1) throw new ConnectionNotFound();
}

/** The full settings, password unsealed, to open a driver. */
export function connectionSecrets(deps: Pick<ConnectionDeps, 'db' | 'secretBox'>, orgId: string, id: string): { view: ConnectionView; settings: ConnectionSettings } {
  const row = getRow(deps.db, orgId, id);
  const v = view(row);
  const secret = row.secret_sealed ? (JSON.parse(deps.secretBox.open(row.secret_sealed)) as { password?: string }) : {};
  return { view: v, settings: { ...v.settings, ...(secret.password !== undefined ? { password: secret.password } : {}) } };
}
