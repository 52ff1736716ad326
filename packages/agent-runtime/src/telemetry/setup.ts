/**
 * Whether the runtime emits telemetry, and with what: only when the host sets `telemetry` in
 * `createAgentRuntime`'s options (ADR-0061). Without it nothing of OpenTelemetry is loaded and
 * the event writer has no observer: no cost on the event path.
 */
import { createRequire } from 'node:module';
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { RuntimeError } from '../errors.js';
import { loadOptional } from '../optional-module.js';
import { RuntimeTelemetry } from './observer.js';
import type { OtelApi } from './values.js';

/** Structurally an OpenTelemetry `TracerProvider` (no type import for hosts without the API). */
export interface TelemetryTracerProvider {
  getTracer(name: string, version?: string, options?: object): unknown;
}

/** Structurally an OpenTelemetry `MeterProvider`. */
export interface TelemetryMeterProvider {
  getMeter(name: string, version?: string, options?: object): unknown;
}

export interface RuntimeTelemetryOptions {
  /** Default: the provider registered globally with `@opentelemetry/api` (a proxy: later too). */
  readonly tracerProvider?: TelemetryTracerProvider;
  /** Default: the global one; register it before `createAgentRuntime`, metrics have no proxy. */
  readonly meterProvider?: TelemetryMeterProvider;
  /**
   * Also record prompt text, the workspace root, tool detail and approval subjects as span
   * attributes (bounded). Default false: ids, names, outcomes, counts and durations only.
   */
  readonly recordContent?: boolean;
}

/** Loads `@opentelemetry/api` through `load` (a seam for tests of a host without it). */
export function loadOtelApi(load: (id: string) => unknown): OtelApi {
  return loadOptional(
    load,
    '@opentelemetry/api',
    (cause) =>
      new RuntimeError(
        'invalid_request',
        'telemetry_api_missing',
        "runtime telemetry needs '@opentelemetry/api', which is not installed; run: npm install @opentelemetry/api@^1.9",
        { details: { package: '@opentelemetry/api' }, cause },
      ),
  ) as OtelApi;
}

/**
 * The observer the host's options ask for, or undefined (and nothing loaded) without them.
 * `load` is how the API is found: the runtime's own `require` unless a test says otherwise.
 */
export function openTelemetry(
  options: RuntimeTelemetryOptions | undefined,
  load: (id: string) => unknown = createRequire(import.meta.url),
): RuntimeTelemetry | undefined {
  if (options === undefined) return undefined;
  const api = loadOtelApi(load);
  // structurally checked by the options schema; the API's own types from here on
  const tracers = (options.tracerProvider as TracerProvider | undefined) ?? api.trace;
  const meters = (options.meterProvider as MeterProvider | undefined) ?? api.metrics;
  return new RuntimeTelemetry(api, tracers, meters, options.recordContent === true);
}
