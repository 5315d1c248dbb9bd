export { createMetrics } from './metrics.ts';
export type { Metrics, MetricSources } from './metrics.ts';
export { checkReadiness } from './readiness.ts';
export type { Readiness, ReadinessCheck } from './readiness.ts';
export { startTracing } from './tracing.ts';
export type { SpanHandle, Tracing } from './tracing.ts';

/** What the gateway's operations routes use. */
export interface Ops {
  metrics: import('./metrics.ts').Metrics;
  readiness(): Promise<import('./readiness.ts').Readiness>;
  /** Set when SEXTANT_OTEL_ENDPOINT is. */
  tracing: import('./tracing.ts').Tracing | undefined;
}
