/**
 * The console API's shapes as zod schemas: the request bodies the server parses and the replies
 * it sends. The server takes its types from these (z.infer), tests check real replies against
 * them, and docs/console.md describes them (a test checks it names every route's fields).
 */
import {
  historyPageSchema,
  interactionRequestSchema,
  sessionStateSchema,
} from '@relvo-labs/agent-provider';
import { z } from 'zod';
import { eventEnvelopeSchema, warmPoolStateSchema } from '@relvo-labs/agent-runtime';
import { LIVE_STATES, SESSION_OWNERS, WAITING_FOR } from './live-state.js';

const iso = z.string().min(1);
const count = z.number().int().min(0);

export const exchangeBodySchema = z.strictObject({
  code: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
});

export const openSessionBodySchema = z.strictObject({
  profile: z.string().min(1).max(200).optional(),
});

export const turnBodySchema = z.strictObject({
  input: z.string().min(1).max(100_000),
  profile: z.string().min(1).max(200).optional(),
});

export const refusalSchema = z.strictObject({ refused: z.string().min(1).max(128) });

export const usageTotalsSchema = z.strictObject({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
});

export const pendingInteractionSchema = z.strictObject({
  sessionId: z.string(),
  interactionId: z.string(),
  turnId: z.string(),
  request: interactionRequestSchema,
  expiresAt: iso.optional(),
  requestedAt: iso,
  sequence: z.number().int().min(1),
});

export const inboxItemSchema = pendingInteractionSchema.extend({
  owner: z.enum(SESSION_OWNERS),
});

export const sessionRowSchema = z.strictObject({
  sessionId: z.string(),
  state: sessionStateSchema,
  defaultProfile: z.string(),
  openedAt: iso,
  updatedAt: iso,
  lastSequence: count,
  title: z.string().optional(),
  turns: count,
  turnStates: z.record(z.string(), count),
  profiles: z.array(z.string()),
  providers: z.array(z.string()),
  usage: usageTotalsSchema,
  lastTurn: z
    .strictObject({
      turnId: z.string(),
      startedAt: iso,
      settledAt: iso.optional(),
      state: z.string().optional(),
      durationMs: z.number().optional(),
    })
    .optional(),
  closedAt: iso.optional(),
  pendingInteractions: z.array(pendingInteractionSchema),
  openRunIds: z.array(z.string()),
  owner: z.enum(SESSION_OWNERS),
  liveState: z.enum(LIVE_STATES),
  waitingFor: z.enum(WAITING_FOR).optional(),
  activeRunId: z.string().optional(),
  damaged: z.literal('log_corrupt').optional(),
});

export const codeReplySchema = z.strictObject({ code: z.string() });
export const tokenReplySchema = z.strictObject({ token: z.string() });
export const sessionsReplySchema = z.strictObject({ sessions: z.array(sessionRowSchema) });
export const sessionReplySchema = z.strictObject({ session: sessionRowSchema });
export const inboxReplySchema = z.strictObject({ pending: z.array(inboxItemSchema) });
export const eventsReplySchema = z.strictObject({ events: z.array(eventEnvelopeSchema) });
export const openedReplySchema = z.strictObject({ sessionId: z.string() });
export const turnReplySchema = z.strictObject({
  turnId: z.string(),
  runId: z.string(),
  profile: z.string(),
  providerId: z.string(),
});
export const interruptReplySchema = z.strictObject({ interrupted: z.literal(true) });
export const revertReplySchema = z.strictObject({ reverted: z.literal(1) });
/** One page of the provider's own thread, newest turns first: the SPI's `HistoryPage`, unchanged. */
export const historyReplySchema = historyPageSchema;
export const answerReplySchema = z.strictObject({ answered: z.string() });
/** The runtime's warm pool (ADR-0037) as `runtime.warmPool()` reports it: its schema, unchanged. */
export const poolReplySchema = warmPoolStateSchema;

/** The events of the streams: `data` of each, by event name. */
export const streamEventSchemas = {
  sessions: sessionsReplySchema,
  inbox: inboxReplySchema,
  pool: poolReplySchema,
  envelope: eventEnvelopeSchema,
  end: z.strictObject({ sessionId: z.string() }),
  refused: refusalSchema,
} as const;
