/**
 * The console's connection bounds: how many sockets it holds at once, how long a request may
 * take to send its headers and its body, how long an idle keep-alive socket stays. A socket
 * over the cap is closed on arrival (counted as `connection_cap`); a slow one gets a 408 and
 * is closed. Streams count against the cap; their request ends at once (a GET without a
 * body), so `requestTimeoutMs` never cuts a stream short.
 */
import type { Server, ServerOptions } from 'node:http';
import { z } from 'zod';

export const CONSOLE_LIMIT_DEFAULTS = {
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as const;

export const consoleLimitsSchema = z.strictObject({
  maxConnections: z.number().int().min(1).max(10_000).optional(),
  headersTimeoutMs: z.number().int().min(10).max(600_000).optional(),
  requestTimeoutMs: z.number().int().min(10).max(600_000).optional(),
  keepAliveTimeoutMs: z.number().int().min(10).max(600_000).optional(),
});
export type ConsoleLimits = z.infer<typeof consoleLimitsSchema>;

export interface AppliedLimits {
  readonly maxConnections: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
}

export function applyDefaults(limits: ConsoleLimits): AppliedLimits {
  const d = CONSOLE_LIMIT_DEFAULTS;
  const headers = limits.headersTimeoutMs ?? d.headersTimeoutMs;
  return {
    maxConnections: limits.maxConnections ?? d.maxConnections,
    headersTimeoutMs: headers,
    // node refuses a headers timeout longer than the request's: the request's is at least it
    requestTimeoutMs: Math.max(limits.requestTimeoutMs ?? d.requestTimeoutMs, headers),
    keepAliveTimeoutMs: limits.keepAliveTimeoutMs ?? d.keepAliveTimeoutMs,
  };
}

/** createServer's options: node checks the timeouts every interval, so it follows them. */
export function serverOptions(limits: AppliedLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(
      10,
      Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)),
    ),
  };
}

/** The cap, with each socket refused over it counted. */
export function capConnections(server: Server, limits: AppliedLimits, dropped: () => void): void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', dropped);
}
