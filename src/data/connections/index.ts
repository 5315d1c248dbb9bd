export {
  connectionSecrets,
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
  type ConnectionDeps,
  type ConnectionInput,
  type ConnectionView,
  type PublicSettings,
} from './connections.ts';
export { connectionToQuery } from './default-connection.ts';
export { openConnection, testConnection, type ConnectionTestResult } from './open-connection.ts';
export { confineWarehousePath, orgWarehouseFolders, resolveWarehouseFile, WarehousePathRefused, type PathRefusal } from './confine-path.ts';
export { listUnconfinedConnections, warnUnconfinedConnections, type UnconfinedConnection } from './unconfined-files.ts';
