/**
 * OTLP export of the runtime's telemetry (docs/observability.md), switched on by the standard
 * OpenTelemetry variables: an OTLP endpoint, or OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER
 * naming `otlp`. The SDK and the OTLP/HTTP (JSON) exporters are optional dependencies of the CLI,
 * loaded only then; without them the command stops with one line saying what to install.
 */
import type { RuntimeTelemetryOptions } from '@relvo-labs/agent-runtime';
import { CliExit, EXIT } from '../exit-codes.js';
import { CLI_VERSION } from '../version.js';
import { codexResidentBytes } from './codex-memory.js';

/** The CLI's own metric (docs/observability.md, "The CLI's own metric"). */
export const CODEX_MEMORY_METRIC = 'relvo.codex.memory';

type Env = Readonly<Record<string, string | undefined>>;

/** What the CLI hands the runtime, and how it flushes on the way out. */
export interface OtlpExport {
  readonly telemetry: RuntimeTelemetryOptions;
  /** Flushes and stops the SDK; bounded, never throws. */
  shutdown(): Promise<void>;
}

const PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-http',
] as const;

const SHUTDOWN_MS = 5_000;

const set = (env: Env, name: string): boolean => (env[name] ?? '').trim() !== '';

/** Whether a signal's export is on: its exporter variable, else any OTLP endpoint for it. */
function wanted(env: Env, signal: 'TRACES' | 'METRICS'): boolean {
  const exporters = (env[`OTEL_${signal}_EXPORTER`] ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (exporters.length > 0) {
    const other = exporters.find((e) => e !== 'otlp' && e !== 'none');
    if (other !== undefined) {
      throw new CliExit(
        EXIT.usage,
        `OTEL_${signal}_EXPORTER=${other.slice(0, 32)} is not supported: relvo-codex exports otlp (or none)`,
      );
    }
    return exporters.includes('otlp');
  }
  return (
    set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') || set(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`)
  );
}

/** The shipped exporters speak OTLP over HTTP with JSON bodies: any other protocol is refused. */
function checkProtocol(env: Env): void {
  for (const name of [
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  ]) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '' && value !== 'http/json') {
      throw new CliExit(
        EXIT.usage,
        `${name}=${value.slice(0, 32)} is not supported: relvo-codex exports OTLP as http/json`,
      );
    }
  }
}

/** How a package is loaded: `import()`, unless a test stands in for a host without it. */
export type Importer = (name: string) => Promise<unknown>;

async function load<T>(importer: Importer, name: (typeof PACKAGES)[number]): Promise<T> {
  try {
    return (await importer(name)) as T;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new CliExit(
      EXIT.usage,
      `OpenTelemetry export is on (OTEL_* variables) but ${name} is not installed; run: npm install ${PACKAGES.join(' ')}`,
    );
  }
}

function bounded(work: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, SHUTDOWN_MS);
    timer.unref();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

/** The export the environment asks for, or undefined when it asks for none. */
export async function startOtlpExport(
  env: Env,
  importer: Importer = (name) => import(name),
): Promise<OtlpExport | undefined> {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return undefined;
  const traces = wanted(env, 'TRACES');
  const metrics = wanted(env, 'METRICS');
  if (!traces && !metrics) return undefined;
  checkProtocol(env);
  const resources = await load<typeof import('@opentelemetry/resources')>(
    importer,
    '@opentelemetry/resources',
  );
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the CLI's own name
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'relvo-codex', 'service.version': CLI_VERSION })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const stops: (() => Promise<void>)[] = [];
  const telemetry: { -readonly [K in keyof RuntimeTelemetryOptions]: RuntimeTelemetryOptions[K] } =
    {};
  if (traces) {
    const sdk = await load<typeof import('@opentelemetry/sdk-trace-base')>(
      importer,
      '@opentelemetry/sdk-trace-base',
    );
    const otlp = await load<typeof import('@opentelemetry/exporter-trace-otlp-http')>(
      importer,
      '@opentelemetry/exporter-trace-otlp-http',
    );
    const provider = new sdk.BasicTracerProvider({
      resource,
      spanProcessors: [new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
    });
    telemetry.tracerProvider = provider;
    stops.push(() => provider.shutdown());
  }
  if (metrics) {
    const sdk = await load<typeof import('@opentelemetry/sdk-metrics')>(
      importer,
      '@opentelemetry/sdk-metrics',
    );
    const otlp = await load<typeof import('@opentelemetry/exporter-metrics-otlp-http')>(
      importer,
      '@opentelemetry/exporter-metrics-otlp-http',
    );
    const interval = Number(env['OTEL_METRIC_EXPORT_INTERVAL'] ?? '60000');
    const reader = new sdk.PeriodicExportingMetricReader({
      exporter: new otlp.OTLPMetricExporter(),
      exportIntervalMillis: Number.isInteger(interval) && interval > 0 ? interval : 60_000,
    });
    const provider = new sdk.MeterProvider({ resource, readers: [reader] });
    telemetry.meterProvider = provider;
    // the one figure the runtime cannot see: the SPI hides a provider's processes from it
    provider
      .getMeter('@relvo-labs/relvo-codex', CLI_VERSION)
      .createObservableGauge(CODEX_MEMORY_METRIC, {
        unit: 'By',
        description: "Resident memory of this process's codex app-servers (Linux)",
      })
      .addCallback((result) => {
        const bytes = codexResidentBytes();
        if (bytes !== undefined) result.observe(bytes);
      });
    stops.push(() => provider.shutdown());
  }
  // a signal that is off falls to the runtime's default, the global provider: the CLI registers
  // none, so it is the API's no-op
  return {
    telemetry,
    shutdown: () => bounded(Promise.allSettled(stops.map((stop) => stop()))),
  };
}
