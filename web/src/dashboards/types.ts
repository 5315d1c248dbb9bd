// The dashboard shapes of the API, named once for the components.
import type { BodyOf, ResponseOf } from '../api/types.ts';

export type Dashboard = ResponseOf<'/api/dashboards/{id}', 'get'>;
export type DashboardFilter = Dashboard['filters'][number];
export type Tile = Dashboard['tiles'][number];
export type TileInput = NonNullable<BodyOf<'/api/dashboards/{id}', 'patch'>['tiles']>[number];
export type TileRun = ResponseOf<'/api/dashboards/{id}/tiles/{tile_id}/run', 'post'>;
export type FilterValue = NonNullable<BodyOf<'/api/dashboards/{id}/tiles/{tile_id}/run', 'post'>['filters']>[number];
/** Runs one tile with the filter values (as the viewer, or as a link's sharer); `refresh` reads afresh. */
export type RunTile = (tileId: string, filters: FilterValue[], signal: AbortSignal, refresh: boolean) => Promise<TileRun>;
