import { z } from 'zod';
import { defineProviderDescriptor } from '../../descriptor.js';
import { jsonObjectSchema } from '../../schemas/json.js';
import {
  DIAGNOSTIC_LEVELS,
  runExtensionPayloadSchema,
  TOOL_PHASES,
  usagePayloadSchema,
} from '../../schemas/events.js';
import { INTERRUPT_MODES, type ProviderDescriptor } from '../../schemas/descriptor.js';
import { interactionRequestSchema } from '../../schemas/interaction.js';

/** One step of a scripted run (docs/spi.md §19.1). Parsed once, when the provider is created. */
export const scriptStepSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('delta'), text: z.string().min(1).max(100_000) }),
  z.strictObject({
    type: z.literal('tool'),
    toolName: z.string().min(1).max(200),
    phase: z.enum(TOOL_PHASES),
    detail: jsonObjectSchema.optional(),
  }),
  z.strictObject({ type: z.literal('usage'), usage: usagePayloadSchema.shape.usage }),
  z.strictObject({
    type: z.literal('diagnostic'),
    level: z.enum(DIAGNOSTIC_LEVELS),
    message: z.string().min(1).max(4000),
  }),
  z.strictObject({
    type: z.literal('extension'),
    namespace: runExtensionPayloadSchema.shape.namespace,
    kind: runExtensionPayloadSchema.shape.kind,
    data: jsonObjectSchema,
  }),
  z.strictObject({
    type: z.literal('ask'),
    ref: z.string().min(1).max(200),
    request: interactionRequestSchema,
  }),
  z.strictObject({ type: z.literal('succeed') }),
  z.strictObject({ type: z.literal('fail'), message: z.string().min(1).max(2000) }),
]);
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type ScriptStepInput = z.input<typeof scriptStepSchema>;

const scriptSchema = z.array(scriptStepSchema);

export const DEFAULT_SCRIPT: readonly ScriptStepInput[] = Object.freeze([
  { type: 'delta', text: 'ack: ' },
  { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
  { type: 'succeed' },
]);

export const scriptedProviderOptionsSchema = z.strictObject({
  providerId: z.string().min(1).max(64).default('scripted'),
  defaultScript: scriptSchema.default(() => scriptSchema.parse(DEFAULT_SCRIPT)),
  /** Keyed by the turn's text parts joined together (no separator). */
  scripts: z.record(z.string(), scriptSchema).default(() => ({})),
  interruptMode: z.enum(INTERRUPT_MODES).default('immediate'),
  supportsApproval: z.boolean().default(true),
  supportsQuestion: z.boolean().default(true),
  supportsRecovery: z.boolean().default(true),
  supportsSteer: z.boolean().default(true),
  /** Declares and accepts per-run `model`, `effort` and `summary` (recorded, otherwise unused). */
  supportsRunOptions: z.boolean().default(false),
  /** Declares `forkSession` (with recovery): a new session from an exported record. */
  supportsFork: z.boolean().default(false),
  /** Declares `session.revert`: the last finished turns are taken back (counted only). */
  supportsRevert: z.boolean().default(false),
  /** Declares `session.history`: the session's turns, newest first, inputs and outcomes only. */
  supportsHistory: z.boolean().default(false),
});
export type ScriptedProviderOptions = z.input<typeof scriptedProviderOptionsSchema>;
export type ResolvedScriptedProviderOptions = z.output<typeof scriptedProviderOptionsSchema>;

export const SCRIPTED_PROVIDER_VERSION = '0.8.0';

export function scriptedDescriptor(options: ResolvedScriptedProviderOptions): ProviderDescriptor {
  const mode = options.interruptMode;
  return defineProviderDescriptor({
    providerId: options.providerId,
    providerVersion: SCRIPTED_PROVIDER_VERSION,
    displayName: 'Scripted provider (test double)',
    run: {
      interrupt: mode === 'unsupported' ? { mode: 'unsupported' } : { mode },
      streaming: { messageDeltas: true, toolActivity: true, incrementalUsage: true },
      maxConcurrentRunsPerSession: 1,
      steer: options.supportsSteer,
      options: {
        model: options.supportsRunOptions,
        effort: options.supportsRunOptions,
        summary: options.supportsRunOptions,
      },
    },
    interaction: {
      approval: options.supportsApproval
        ? { supported: true, modes: ['once', 'session'], blocking: true }
        : {},
      question: options.supportsQuestion
        ? {
            supported: true,
            choices: true,
            multiSelect: true,
            batch: true,
            maxQuestions: null,
            freeText: true,
            sensitive: true,
          }
        : {},
      settlementTimeoutMs: null,
    },
    workspace: { requires: 'directory', acceptsOwnership: ['borrowed', 'managed'], writes: false },
    recovery: options.supportsRecovery
      ? {
          exportsRecoveryRecord: true,
          resumesFromRecoveryRecord: false,
          forksFromRecoveryRecord: options.supportsFork,
        }
      : {},
    session: { revert: options.supportsRevert, history: options.supportsHistory },
  });
}
