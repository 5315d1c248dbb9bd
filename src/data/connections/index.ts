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
export { openConnection, testConnection, type ConnectionTestResult } from './open-connection.ts';
