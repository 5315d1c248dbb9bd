// The HTTP request histogram, counted here and formatted by prom-client when scraped. prom-client's
// histogram converts, validates and hashes the labels on every observation, a labelled child too
// (~1.5 µs of a small request's CPU in a profile, with the lookup around it ~2.8 µs); here a series
// is found by one string key and an observation is a bucket search and three additions.
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: number[];
  sum: number;
}

/** A value prom-client's registry formats: labels, value and the sample's own name. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    registry: Registry,
  ) {
    // The registry reads a metric through name, help, type, aggregator, get() and reset() only.
    registry.registerMetric(this as unknown as Metric);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (!series) this.#series.set(key, (series = { labels: { method, route, status: String(status) }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0 }));
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]!) i++;
    series.counts[i]!++;
    series.sum += seconds;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Sample[] } {
    const values: Sample[] = [];
    for (const { labels, counts, sum } of this.#series.values()) {
      let cumulative = 0;
      for (const [i, le] of [...this.buckets, '+Inf' as const].entries()) {
        cumulative += counts[i]!;
        values.push({ labels: { ...labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: sum, metricName: `${this.name}_sum` }, { labels, value: cumulative, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}
