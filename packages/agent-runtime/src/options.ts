/**
 * The host's options to the runtime's functions, as zod schemas: every number bounded (a NaN
 * or an Infinity would silently remove a bound) and, where the object is the runtime's alone,
 * every unknown key named. Keys are added here, in one place.
 */
import { z } from 'zod';
import { describeIssues, summarise } from './config-issues.js';
import { RuntimeError } from './errors.js';

/** A setTimeout-able delay in milliseconds. */
const delayMsSchema = z.number().int().nonnegative().max(2_147_483_647);

/** An object with a method `name` (a host's OpenTelemetry provider). */
const withMethod = (name: string) =>
  z.custom<object>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as Record<string, unknown>)[name] === 'function',
  );

/** `createAgentRuntime`'s numbers; its other keys are objects and functions TypeScript checks. */
export const agentRuntimeOptionsSchema = z.object({
  closeGraceMs: delayMsSchema.optional(),
  commandTimeoutMs: delayMsSchema.optional(),
  telemetry: z
    .strictObject({
      tracerProvider: withMethod('getTracer').optional(),
      meterProvider: withMethod('getMeter').optional(),
      recordContent: z.boolean().optional(),
    })
    .optional(),
});

export const subscribeOptionsSchema = z.strictObject({
  /** Checked when the subscription starts (`cursor_out_of_range`). */
  fromSequence: z.unknown().optional(),
  liveBufferLimit: z.number().int().positive().max(1_000_000).optional(),
});

export const sqliteEventStoreOptionsSchema = z.strictObject({
  path: z.string(),
  synchronous: z.enum(['full', 'normal']).optional(),
  busyTimeoutMs: delayMsSchema.optional(),
  leaseMs: z.number().int().min(100).max(3_600_000).optional(),
  pollMs: z.number().int().min(5).max(60_000).optional(),
  migrateTo: z.number().int().nonnegative().optional(),
});

/** A SQL identifier the store may interpolate: lower case, digits, underscores; `pg_` is the server's. */
const pgSchemaNameSchema = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,39}$/)
  .refine((name) => !name.startsWith('pg_'));

export const postgresEventStoreOptionsSchema = z
  .strictObject({
    connectionString: z.string().min(1).optional(),
    /** A `pg.Pool` the host owns: used, never ended by the store. */
    pool: z
      .custom<object>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as { connect?: unknown }).connect === 'function',
      )
      .optional(),
    schema: pgSchemaNameSchema.optional(),
    leaseMs: z.number().int().min(100).max(3_600_000).optional(),
    maxConnections: z.number().int().positive().max(1_000).optional(),
    connectTimeoutMs: delayMsSchema.optional(),
    followRetries: z.number().int().nonnegative().max(100).optional(),
    followRetryMs: z.number().int().positive().max(60_000).optional(),
    recordKey: z.string().min(1).max(1_024).optional(),
    recordKeyFile: z.string().min(1).optional(),
    migrateTo: z.number().int().nonnegative().optional(),
  })
  .superRefine((o, ctx) => {
    if ((o.connectionString === undefined) === (o.pool === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['connectionString'],
        message: 'exactly one of connectionString and pool is required',
      });
    }
  });

/** Parses `value` or throws `option_invalid` naming each refused key (never its value). */
export function checkOptions<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error, schema);
  throw new RuntimeError('invalid_request', 'option_invalid', `${what}: ${summarise(issues)}`, {
    details: {
      path: issues[0]?.path ?? '(root)',
      issues: issues.map((i) => ({ path: i.path, ...i.details })),
    },
  });
}
