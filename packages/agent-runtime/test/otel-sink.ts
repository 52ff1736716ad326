/**
 * The OpenTelemetry SDK with in-memory exporters, for the telemetry tests: spans as they end
 * (SimpleSpanProcessor) and metric points on demand (a periodic reader flushed by hand).
 */
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export interface OtelSink {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly spans: () => ReadableSpan[];
  /** Every metric the meter holds now, by name (cumulative). */
  metrics(): Promise<Map<string, MetricData>>;
  shutdown(): Promise<void>;
}

export function otelSink(): OtelSink {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // an interval no test reaches: points are exported only when a test flushes
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async metrics() {
      metricExporter.reset();
      await reader.forceFlush();
      const byName = new Map<string, MetricData>();
      for (const resource of metricExporter.getMetrics()) {
        for (const scope of resource.scopeMetrics) {
          for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
        }
      }
      return byName;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** A metric's points as plain values: `{ attributes, value }` (a histogram's value: its count and sum). */
export function points(
  metric: MetricData | undefined,
): { attributes: Record<string, unknown>; value: unknown }[] {
  if (metric === undefined) return [];
  return (metric.dataPoints as DataPoint<unknown>[]).map((p) => ({
    attributes: { ...p.attributes },
    value: p.value,
  }));
}

/** Every string value any span holds in an attribute or an event's attribute. */
export function attributeStrings(spans: readonly ReadableSpan[]): string[] {
  const out: string[] = [];
  const add = (attrs: Record<string, unknown>): void => {
    for (const v of Object.values(attrs)) {
      if (typeof v === 'string') out.push(v);
      if (Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === 'string'));
    }
  };
  for (const span of spans) {
    add(span.attributes);
    for (const event of span.events) add(event.attributes ?? {});
    out.push(span.name);
  }
  return out;
}

/** The span's parent span id (SDK 2: `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
