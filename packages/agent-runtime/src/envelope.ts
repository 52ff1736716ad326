import {
  WIRE_VERSION,
  contextItemsSchema,
  agentErrorSchema,
  diagnosticPayloadSchema,
  interactionIdSchema,
  interactionRequestSchema,
  interactionResponseSchema,
  interactionSettlementSchema,
  jsonObjectSchema,
  messageDeltaPayloadSchema,
  providerRecoveryRecordSchema,
  runIdSchema,
  runExtensionPayloadSchema,
  runStateSchema,
  runTerminationSchema,
  sessionIdSchema,
  sessionStateSchema,
  timestampSchema,
  toolActivityPayloadSchema,
  turnIdSchema,
  turnInputSchema,
  turnStateSchema,
  usagePayloadSchema,
  workspaceOwnershipSchema,
} from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { profileNameSchema, providerIdSchema } from './config.js';
import {
  sessionRevertedPayloadSchema,
  sessionRevertRequestedPayloadSchema,
} from './revert-events.js';

/*
 * The full EventPayload union (docs/spi.md §10.4): the provider-emittable payloads the runtime
 * records as they are (deltas, tool activity, usage, diagnostics) plus the payloads only
 * the runtime writes. A provider's `interaction.requested` is recorded in its runtime form
 * (interactionId, turnId; the provider's ref stays in memory) and `interaction.withdrawn`
 * is recorded as `interaction.settled` with outcome `withdrawn`.
 */

export const SESSION_CLOSE_REASONS = ['requested', 'failed'] as const;
export const TURN_SETTLED_STATES = ['completed', 'failed', 'cancelled'] as const;

export const sessionOpenedPayloadSchema = z.strictObject({
  type: z.literal('session.opened'),
  defaultProfile: profileNameSchema,
  workspace: z.strictObject({ root: z.string().min(1), ownership: workspaceOwnershipSchema }),
  metadata: jsonObjectSchema.optional(),
  /** The session this one was forked from (`runtime.forkSession`). */
  forkedFrom: sessionIdSchema.optional(),
});

export const sessionStateChangedPayloadSchema = z.strictObject({
  type: z.literal('session.state_changed'),
  from: sessionStateSchema,
  to: sessionStateSchema,
});

export const sessionClosedPayloadSchema = z.strictObject({
  type: z.literal('session.closed'),
  reason: z.enum(SESSION_CLOSE_REASONS),
  error: agentErrorSchema.optional(),
});

/** Bound on one recorded recovery record, as JSON text (docs/spi.md §16 keeps it small). */
export const RECOVERY_RECORD_MAX_CHARS = 4096;

/**
 * The provider session of `profile` can be resumed from `record` (a provider that declares
 * export and resume). Recorded when it opens and again when a run changed it; the latest wins.
 */
export const sessionRecoveryRecordedPayloadSchema = z.strictObject({
  type: z.literal('session.recovery_recorded'),
  profile: profileNameSchema,
  record: providerRecoveryRecordSchema.refine(
    (r) => JSON.stringify(r).length <= RECOVERY_RECORD_MAX_CHARS,
    { error: `a recovery record is at most ${RECOVERY_RECORD_MAX_CHARS} characters as JSON` },
  ),
  /** HMAC-SHA-256 (hex) of the record with its session and workspace, under the log's key. */
  mac: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

export const turnStartedPayloadSchema = z.strictObject({
  type: z.literal('turn.started'),
  turnId: turnIdSchema,
  profile: profileNameSchema,
  providerId: providerIdSchema,
  input: turnInputSchema,
});

export const turnStateChangedPayloadSchema = z.strictObject({
  type: z.literal('turn.state_changed'),
  turnId: turnIdSchema,
  from: turnStateSchema,
  to: turnStateSchema,
});

export const turnSettledPayloadSchema = z.strictObject({
  type: z.literal('turn.settled'),
  turnId: turnIdSchema,
  state: z.enum(TURN_SETTLED_STATES),
  error: agentErrorSchema.optional(),
});

export const runStartedPayloadSchema = z.strictObject({
  type: z.literal('run.started'),
  turnId: turnIdSchema,
  attempt: z.number().int().positive(),
  profile: profileNameSchema,
  providerId: providerIdSchema,
});

export const runStateChangedPayloadSchema = z.strictObject({
  type: z.literal('run.state_changed'),
  from: runStateSchema,
  to: runStateSchema,
});

export const runFinishedPayloadSchema = z.strictObject({
  type: z.literal('run.finished'),
  termination: runTerminationSchema,
});

export const runtimeInteractionRequestedPayloadSchema = z.strictObject({
  type: z.literal('interaction.requested'),
  interactionId: interactionIdSchema,
  turnId: turnIdSchema,
  request: interactionRequestSchema,
  expiresAt: timestampSchema.optional(),
});

export const interactionSettledPayloadSchema = z.strictObject({
  type: z.literal('interaction.settled'),
  interactionId: interactionIdSchema,
  settlement: interactionSettlementSchema,
});

/*
 * Host commands, recorded before the provider gets them (ADR-0046): durable under the lease
 * first, so a host that lost its lease or its store hands the provider nothing.
 */

/** A host's answer, about to be handed to the provider; `interaction.settled` says how it went. */
export const interactionAnsweredPayloadSchema = z.strictObject({
  type: z.literal('interaction.answered'),
  interactionId: interactionIdSchema,
  response: interactionResponseSchema,
});

/** Input a host adds to the running run, about to be handed to the provider. */
export const runSteeredPayloadSchema = z.strictObject({
  type: z.literal('run.steered'),
  input: turnInputSchema,
});

/** Text a host adds for a profile's model, about to be handed to its provider session. */
export const contextInjectedPayloadSchema = z.strictObject({
  type: z.literal('context.injected'),
  profile: profileNameSchema,
  items: contextItemsSchema,
});

/** A host asked to interrupt the run; `run.state_changed` to `interrupting` once it accepted. */
export const runInterruptRequestedPayloadSchema = z.strictObject({
  type: z.literal('run.interrupt_requested'),
});

export const eventPayloadSchema = z.discriminatedUnion('type', [
  sessionOpenedPayloadSchema,
  sessionStateChangedPayloadSchema,
  sessionClosedPayloadSchema,
  sessionRecoveryRecordedPayloadSchema,
  turnStartedPayloadSchema,
  turnStateChangedPayloadSchema,
  turnSettledPayloadSchema,
  runStartedPayloadSchema,
  runStateChangedPayloadSchema,
  runFinishedPayloadSchema,
  runtimeInteractionRequestedPayloadSchema,
  interactionSettledPayloadSchema,
  interactionAnsweredPayloadSchema,
  runSteeredPayloadSchema,
  runInterruptRequestedPayloadSchema,
  contextInjectedPayloadSchema,
  sessionRevertRequestedPayloadSchema,
  sessionRevertedPayloadSchema,
  messageDeltaPayloadSchema,
  toolActivityPayloadSchema,
  usagePayloadSchema,
  runExtensionPayloadSchema,
  diagnosticPayloadSchema,
]);
export type EventPayload = z.infer<typeof eventPayloadSchema>;
export type EventType = EventPayload['type'];
export type PayloadOf<T extends EventType> = Extract<EventPayload, { type: T }>;

const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,120}$/;
export const eventIdSchema = z.string().regex(EVENT_ID);

/** `sequence` is per session, 1-based, gapless and strictly increasing. */
export const eventEnvelopeSchema = z.strictObject({
  eventId: eventIdSchema,
  sessionId: sessionIdSchema,
  runId: runIdSchema.optional(),
  sequence: z.number().int().positive(),
  occurredAt: timestampSchema,
  wireVersion: z.literal(WIRE_VERSION),
  payload: eventPayloadSchema,
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/**
 * Judges the headers of the envelopes one session log builds, by the schema above. A turn's
 * envelopes repeat the session id, the run id and (within a millisecond) the timestamp, and
 * each sequence follows the last: a verdict on those is remembered until the value changes.
 * The event id is tested every time, against the pattern `eventIdSchema` is built from. The
 * payload is the caller's to judge.
 */
export class EnvelopeHeaderJudge {
  /**
   * @param idsTrusted the event ids come from the runtime's own factory (`evt_` and 32 hex
   * digits by construction), so they are not tested again; a host's factory's ids are.
   */
  constructor(private readonly idsTrusted = false) {}

  #sessionId: string | undefined;
  #runId: string | undefined;
  #occurredAt: string | undefined;
  #sequence = Number.NaN;

  /**
   * @param stampCanonical `occurredAt` is `toISOString()` of a time in years 0000–9999, which
   * always matches the timestamp schema: not tested again.
   */
  accepts(envelope: Omit<EventEnvelope, 'payload'>, stampCanonical = false): boolean {
    const shape = eventEnvelopeSchema.shape;
    if (envelope.sessionId !== this.#sessionId) {
      if (!shape.sessionId.safeParse(envelope.sessionId).success) return false;
      this.#sessionId = envelope.sessionId;
    }
    if (envelope.runId !== undefined && envelope.runId !== this.#runId) {
      if (!shape.runId.safeParse(envelope.runId).success) return false;
      this.#runId = envelope.runId;
    }
    if (envelope.occurredAt !== this.#occurredAt) {
      if (!stampCanonical && !shape.occurredAt.safeParse(envelope.occurredAt).success) return false;
      this.#occurredAt = envelope.occurredAt;
    }
    // the successor of an accepted sequence is one too (2^53 events away from unsafe)
    if (envelope.sequence !== this.#sequence + 1) {
      if (!shape.sequence.safeParse(envelope.sequence).success) return false;
    }
    // wireVersion is the literal by type
    if (!this.idsTrusted && !EVENT_ID.test(envelope.eventId)) return false;
    this.#sequence = envelope.sequence;
    return true;
  }
}

/** Parses one envelope (e.g. a line a host wrote out as JSON). Throws a ZodError when invalid. */
export function parseEventEnvelope(value: unknown): EventEnvelope {
  return eventEnvelopeSchema.parse(value);
}
