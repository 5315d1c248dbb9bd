// OpenTelemetry tracing, on only with SEXTANT_OTEL_ENDPOINT (OTLP over HTTP). The SDK loads on that
// condition alone: an installation without a collector never pays for it. Spans: one per HTTP request
// (named by route template), one per agent run and one per warehouse query, the last two recorded when
// they end, as children of whatever span is active then.

export interface SpanHandle {
  /** Renames the span (the route template is known only once the router has matched). */
  rename(name: string): void;
  setAttributes(attributes: Record<string, string | number>): void;
}

export interface Tracing {
  /** Runs `fn` inside a new active span; an error thrown marks the span failed. */
  inSpan<T>(name: string, fn: (span: SpanHandle) => Promise<T>): Promise<T>;
  /** Records a finished piece of work that took `seconds` until now. */
  record(name: string, attributes: Record<string, string | number>, seconds: number, failed?: boolean): void;
  /** Sends the spans still buffered and stops. */
  close(): Promise<void>;
}

/** Starts the SDK with a batching OTLP/HTTP exporter to `endpoint` (e.g. http://collector:4318/v1/traces). */
export async function startTracing(endpoint: string, version: string): Promise<Tracing> {
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'sextant', 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))],
  });
  // Registers the AsyncLocalStorage context manager: spans started in a request's work are its children.
  provider.register();
  const tracer = provider.getTracer('sextant', version);
  const ERROR = api.SpanStatusCode.ERROR;
  return {
    inSpan: (name, fn) =>
      tracer.startActiveSpan(name, async (span) => {
        try {
          return await fn({ rename: (n) => void span.updateName(n), setAttributes: (a) => void span.setAttributes(a) });
        } catch (err) {
          span.setStatus({ code: ERROR });
          throw err;
        } finally {
          span.end();
        }
      }),
    record(name, attributes, seconds, failed = false) {
      const end = Date.now();
      const span = tracer.startSpan(name, { attributes, startTime: end - seconds * 1000 });
      if (failed) span.setStatus({ code: ERROR });
      span.end(end);
    },
    close: () => provider.shutdown(),
  };
}
