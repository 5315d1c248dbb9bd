// Dashboards: saved questions and text on a grid, with filters applied to every tile whose result
// has the field, run tile by tile as the viewer, and read-only links that run as the sharer.
export { createDashboard, editDashboard, removeDashboard, type NewDashboard, type DashboardEdit } from './write-dashboard.ts';
export { dashboards, dashboard } from './read-dashboards.ts';
export { runTile, runTiles, runDashboard, type DashboardRunTile, type TileOutcome, type TileRunArgs } from './run-tiles.ts';
export { shareDashboard, dashboardShares, revokeDashboardShare, sharedDashboard, runSharedTile, runSharedTiles, type DashboardShare } from './share-dashboard.ts';
/** For seeding a demo's dashboard under a fixed id (src/compose/demo). */
export { findDashboard, insertDashboard } from './dashboards-store.ts';
export type { DashboardDeps } from './deps.ts';
export type { DashboardPorts, TileQuestion, ResultCondition, FilteredRows } from './ports.ts';
export * from './errors.ts';
export * from './schemas.ts';
