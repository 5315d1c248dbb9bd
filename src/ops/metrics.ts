// Prometheus metrics (prom-client), one registry per service so tests can run several side by side.
// Labels stay bounded: requests by route template (never the raw path), warehouse queries by engine.
// Gauges (running answers, queue depths) are read when Prometheus scrapes, not kept up to date.
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RequestHistogram } from './request-histogram.ts';

/** What the gauges read at scrape time. */
export interface MetricSources {
  runningAnswers: () => number;
  /** Depth of each queue by name (mail, evaluation, query_processes). */
  queues: Record<string, () => number | Promise<number>>;
}

export interface Metrics {
  registry: Registry;
  /** One HTTP request: method, route template, status, duration. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** One write transaction of the service database (BEGIN to COMMIT). */
  observeStoreTransaction(seconds: number): void;
  /** One warehouse query, by engine and outcome (ok, failed, refused...). */
  observeWarehouseQuery(engine: string, status: string, seconds: number): void;
  /** One agent answer, by how it ended (completed, stopped, failed). */
  observeAnswer(status: string, seconds: number): void;
  /** Connects the gauges to what they read. */
  setSources(sources: MetricSources): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; text: string }>;
}

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];

/** Creates the registry with the process's default metrics and Sextant's own. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricSources = { runningAnswers: () => 0, queues: {} };
  const requests = new RequestHistogram('sextant_http_request_duration_seconds', 'HTTP requests by method, route template and status', LATENCY_BUCKETS, registry);
  const store = new Histogram({ name: 'sextant_store_transaction_duration_seconds', help: 'Write transactions of the service database, BEGIN to COMMIT', buckets: LATENCY_BUCKETS, registers });
  const warehouse = new Histogram({ name: 'sextant_warehouse_query_duration_seconds', help: 'Governed warehouse queries by engine and outcome', labelNames: ['engine', 'status'], buckets: QUERY_BUCKETS, registers });
  const answers = new Histogram({ name: 'sextant_answer_duration_seconds', help: 'Agent answers by how they ended', labelNames: ['status'], buckets: QUERY_BUCKETS, registers });
  new Gauge({
    name: 'sextant_answers_running',
    help: 'Agent answers in progress',
    registers,
    collect() {
      this.set(sources.runningAnswers());
    },
  });
  new Gauge({
    name: 'sextant_queue_depth',
    help: 'Items waiting in a queue (mail, evaluation, query_processes)',
    labelNames: ['queue'],
    registers,
    async collect() {
      for (const [queue, depth] of Object.entries(sources.queues)) this.set({ queue }, await depth());
    },
  });
  return {
    registry,
    observeRequest: (method, route, status, seconds) => requests.observe(method, route, status, seconds),
    observeStoreTransaction: (seconds) => store.observe(seconds),
    observeWarehouseQuery: (engine, status, seconds) => warehouse.labels(engine, status).observe(seconds),
    observeAnswer: (status, seconds) => answers.labels(status).observe(seconds),
    setSources(s) {
      sources = s;
    },
    async render() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}
