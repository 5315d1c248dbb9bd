// Dashboards as the API shows them; the same zod schemas validate requests and document OpenAPI.
import { z } from 'zod';

/** `private`: the owner only; `organization`: every member of the organization. */
export const Visibility = z.enum(['private', 'organization']);
export type Visibility = z.infer<typeof Visibility>;

/** A column name of a tile's result: letters, digits and underscores, as the warehouse names it. */
export const FieldName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'A column name: letters, digits and underscores, not starting with a digit')
  .describe('The result column the filter applies to (matched case-insensitively)');

const FilterId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Letters, digits, _ and -, at most 40');

/** A calendar day, `YYYY-MM-DD`, that exists. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Not a calendar date');

/** A dimension value: text (no NUL, which PostgreSQL cannot bind) or a finite number. */
export const DimensionValue = z.union([z.string().max(500).refine((s) => !s.includes('\0'), 'Text without NUL characters'), z.number().finite()]);
export type DimensionValue = z.infer<typeof DimensionValue>;

const DateRangeValue = z.object({ from: IsoDate.nullable().optional().describe('First day, inclusive'), to: IsoDate.nullable().optional().describe('Last day, inclusive') });
const Values = z.array(DimensionValue).max(100);

const DateRangeFilter = { type: z.literal('date_range'), field: FieldName, label: z.string().max(100).optional(), default: DateRangeValue.optional() };
const ValuesFilter = { type: z.literal('values'), field: FieldName, label: z.string().max(100).optional(), default: Values.optional() };

/** A filter of the dashboard: a date range or dimension values on a named field, with an optional default. */
export const DashboardFilter = z.discriminatedUnion('type', [z.object({ id: FilterId, ...DateRangeFilter }), z.object({ id: FilterId, ...ValuesFilter })]);
export type DashboardFilter = z.infer<typeof DashboardFilter>;

/** A filter as written: without an id, it is given one (as a tile is), which the dashboard then shows. */
export const FilterInput = z.discriminatedUnion('type', [z.object({ id: FilterId.optional(), ...DateRangeFilter }), z.object({ id: FilterId.optional(), ...ValuesFilter })]);
export type FilterInput = z.infer<typeof FilterInput>;

/** The value a viewer gives one filter for a run; it replaces the filter's default (empty: no constraint). */
export const FilterValue = z.object({
  id: FilterId,
  from: IsoDate.nullable().optional().describe('date_range: first day, inclusive'),
  to: IsoDate.nullable().optional().describe('date_range: last day, inclusive'),
  values: Values.optional().describe('values: the dimension values to keep'),
});
export type FilterValue = z.infer<typeof FilterValue>;

/** The grid's width in columns: a tile's x + w may not pass it. */
export const GRID_COLUMNS = 12;

/** Where a tile sits on the 12-column grid. */
const Grid = {
  x: z.number().int().min(0).max(11),
  y: z.number().int().min(0).max(1000),
  w: z.number().int().min(1).max(12),
  h: z.number().int().min(1).max(50),
};

/** A tile as written: a saved question or text, with its place on the grid. */
export const TileInput = z.union([
  z.object({ id: FilterId.optional(), saved_question_id: z.string().min(1).max(100), ...Grid }).strict(),
  z.object({ id: FilterId.optional(), text: z.string().max(10_000), ...Grid }).strict(),
]);
export type TileInput = z.infer<typeof TileInput>;

/**
 * Refuses a tile that sticks out of the grid (x + w past 12), naming it: stored as it came, the web
 * client's grid would silently move it, and the layout saved would not be the layout shown.
 */
export function tilesInGrid(tiles: TileInput[], ctx: z.RefinementCtx): void {
  tiles.forEach((t, i) => {
    if (t.x + t.w > GRID_COLUMNS) ctx.addIssue({ code: 'custom', message: `The tile ends past the grid's ${GRID_COLUMNS} columns (x + w > ${GRID_COLUMNS})`, path: [i, 'w'] });
  });
}

export const Tile = z.object({
  id: z.string(),
  ...Grid,
  saved_question_id: z.string().nullable(),
  text: z.string().nullable(),
  question: z
    .object({ title: z.string(), chart: z.record(z.string(), z.unknown()).nullable() })
    .nullable()
    .describe('The saved question as the caller sees it; null for text, or when the caller may not read it (running the tile answers 404)'),
});
export type Tile = z.infer<typeof Tile>;

export const Dashboard = z.object({
  id: z.string(),
  owner_id: z.string(),
  visibility: Visibility,
  version: z.number().int(),
  title: z.string(),
  description: z.string(),
  filters: z.array(DashboardFilter),
  tiles: z.array(Tile),
  created_at: z.string().describe('ISO 8601'),
  updated_at: z.string().describe('ISO 8601'),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const DashboardSummary = Dashboard.omit({ tiles: true, filters: true }).extend({ tile_count: z.number().int() });
export type DashboardSummary = z.infer<typeof DashboardSummary>;

export const TileRun = z.object({
  tile_id: z.string(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  read_at: z.string().describe('When the warehouse was read (ISO 8601)'),
  truncated: z.boolean(),
  applied_filters: z.array(z.string()).describe('The ids of the filters applied: those whose field the result has'),
});
export type TileRun = z.infer<typeof TileRun>;

/** The fields a dashboard is written with. */
export interface DashboardFields {
  title: string;
  description: string;
  visibility: Visibility;
  filters: DashboardFilter[];
}

/** A tile as stored. */
export interface StoredTile {
  id: string;
  saved_question_id: string | null;
  text: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
}
