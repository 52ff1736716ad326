import { z } from 'zod';
import { HOST_TOOL_BOUNDS } from './host-tools.js';
import { approvalModeSchema } from './interaction.js';
import { jsonObjectSchema } from './json.js';
import { sessionCapabilitySchema } from './session-ops.js';

/*
 * Every member defaults to its least capable value (docs/spi.md §4). Nested objects use
 * `prefault({})` so their own member defaults are applied by parsing, and array
 * defaults are factories so no two parses share (and later freeze) one array.
 */

export const INTERRUPT_MODES = ['immediate', 'cooperative', 'unsupported'] as const;
export const interruptModeSchema = z.enum(INTERRUPT_MODES);
export type InterruptMode = z.infer<typeof interruptModeSchema>;

export const WORKSPACE_OWNERSHIPS = ['borrowed', 'managed'] as const;
export const workspaceOwnershipSchema = z.enum(WORKSPACE_OWNERSHIPS);
export type WorkspaceOwnership = z.infer<typeof workspaceOwnershipSchema>;

export const PROVIDER_ID_PATTERN = /^[a-z][a-z0-9-]*$/;

const positiveInt = z.number().int().positive();

export const interruptCapabilitySchema = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.enum(['immediate', 'cooperative']),
    deliversPartialOutput: z.boolean().default(true),
    sessionRemainsUsable: z.boolean().default(true),
  }),
  z.strictObject({
    mode: z.literal('unsupported'),
    deliversPartialOutput: z.literal(false).default(false),
    sessionRemainsUsable: z.literal(false).default(false),
  }),
]);

export const runCapabilitySchema = z.strictObject({
  interrupt: interruptCapabilitySchema.prefault({ mode: 'unsupported' }),
  streaming: z
    .strictObject({
      messageDeltas: z.boolean().default(false),
      toolActivity: z.boolean().default(false),
      incrementalUsage: z.boolean().default(false),
    })
    .prefault({}),
  maxConcurrentRunsPerSession: positiveInt.default(1),
  // true = `ProviderRun.steer` adds input to an active run.
  steer: z.boolean().default(false),
  // true = `ProviderRunRequest.outputSchema` is honoured (validated, delivered as an extension).
  structuredOutput: z.boolean().default(false),
  // true = the `ProviderRunRequest` member of that name is honoured for that run only.
  options: z
    .strictObject({
      model: z.boolean().default(false),
      effort: z.boolean().default(false),
      summary: z.boolean().default(false),
    })
    .prefault({}),
  // true = `ProviderSession.injectContext` adds text to the session's next model request.
  injectContext: z.boolean().default(false),
});

export const interactionCapabilitySchema = z.strictObject({
  approval: z
    .strictObject({
      supported: z.boolean().default(false),
      modes: z.array(approvalModeSchema).default(() => []),
      // false = advisory, after the fact; never to be shown as a gate.
      blocking: z.boolean().default(true),
    })
    .prefault({}),
  question: z
    .strictObject({
      supported: z.boolean().default(false),
      choices: z.boolean().default(false),
      multiSelect: z.boolean().default(false),
      batch: z.boolean().default(false),
      // null = no provider cap below the request bound of 32.
      maxQuestions: positiveInt.nullable().default(null),
      freeText: z.boolean().default(false),
      sensitive: z.boolean().default(false),
    })
    .prefault({}),
  // supported = `ProviderSessionInit.tools` are offered to the model, each call a `tool_call`.
  toolCall: z
    .strictObject({
      supported: z.boolean().default(false),
      maxTools: positiveInt.max(HOST_TOOL_BOUNDS.tools).default(HOST_TOOL_BOUNDS.tools),
    })
    .prefault({}),
  // null = the provider waits indefinitely.
  settlementTimeoutMs: positiveInt.nullable().default(null),
});

export const workspaceCapabilitySchema = z.strictObject({
  requires: z.enum(['directory', 'none']),
  acceptsOwnership: z
    .array(workspaceOwnershipSchema)
    .default((): WorkspaceOwnership[] => ['borrowed', 'managed']),
  writes: z.boolean().default(true),
});

// Resume or fork without export is deliberately unrepresentable (docs/spi.md §4.4).
export const recoveryCapabilitySchema = z.union([
  z.strictObject({
    exportsRecoveryRecord: z.literal(false).default(false),
    resumesFromRecoveryRecord: z.literal(false).default(false),
    forksFromRecoveryRecord: z.literal(false).default(false),
  }),
  z.strictObject({
    exportsRecoveryRecord: z.literal(true),
    resumesFromRecoveryRecord: z.boolean().default(false),
    // true = `AgentProvider.forkSession` opens a new session carrying the record's history.
    forksFromRecoveryRecord: z.boolean().default(false),
  }),
]);

export const providerDescriptorSchema = z.strictObject({
  providerId: z.string().min(1).max(64).regex(PROVIDER_ID_PATTERN),
  providerVersion: z.string().min(1).max(64),
  wireVersion: z.string().min(1).max(16),
  displayName: z.string().min(1).max(128),
  run: runCapabilitySchema.prefault({}),
  interaction: interactionCapabilitySchema.prefault({}),
  workspace: workspaceCapabilitySchema,
  recovery: recoveryCapabilitySchema.prefault({}),
  session: sessionCapabilitySchema.prefault({}),
  extensions: jsonObjectSchema.default(() => ({})),
});

export type InterruptCapability = z.infer<typeof interruptCapabilitySchema>;
export type RunCapability = z.infer<typeof runCapabilitySchema>;
export type InteractionCapability = z.infer<typeof interactionCapabilitySchema>;
export type WorkspaceCapability = z.infer<typeof workspaceCapabilitySchema>;
export type RecoveryCapability = z.infer<typeof recoveryCapabilitySchema>;
export type ProviderDescriptor = z.infer<typeof providerDescriptorSchema>;
export type ProviderDescriptorInput = z.input<typeof providerDescriptorSchema>;
