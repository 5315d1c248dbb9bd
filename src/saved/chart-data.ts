// A saved chart keeps how to draw, never what it drew. An answer's chart carries the answer's rows
// inline (Vega-Lite `data.values`, read under the saver's row security); kept in the question, those
// rows would reach every member who may open it, whatever their own row filters. Every run supplies
// its own rows, so a saved spec's data sources (`data`, `datasets`, at any depth: layers, lookups)
// are dropped when it is written and, for questions written before, when it is read.
import type { ChartSpec } from './schemas.ts';

const DATA_KEYS = new Set(['data', 'datasets']);

function withoutData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutData);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !DATA_KEYS.has(key)).map(([key, v]) => [key, withoutData(v)]));
}

/** The spec without any data source of its own. */
export const chartWithoutData = (spec: ChartSpec | null): ChartSpec | null => (spec === null ? null : (withoutData(spec) as ChartSpec));
