export { createMetrics } from './metrics.ts';
export type { Metrics, MetricSources } from './metrics.ts';
export { checkReadiness } from './readiness.ts';
export type { Readiness, ReadinessCheck } from './readiness.ts';

/** What the gateway's operations routes use. */
export interface Ops {
  metrics: import('./metrics.ts').Metrics;
  readiness(): Promise<import('./readiness.ts').Readiness>;
}
