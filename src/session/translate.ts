/**
 * Pure notification → neutral translation. Nothing here copies upstream prose: errors are
 * published as allowlisted classification tokens only, and no native id reaches an event.
 */
import {
  type AgentErrorCode,
  type ProviderEventInput,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import {
  agentMessageDeltaBodySchema,
  errorNotificationSchema,
  tokenUsageUpdatedSchema,
} from '../protocol/wire.js';
import {
  TURN_ERROR_CLASSIFICATIONS,
  TURN_ERROR_RETRYABLE_CLASSIFICATIONS,
  type TurnErrorClassification,
} from '../protocol/vocabulary.js';
import { codexError } from '../shared/codex-error.js';

export const MAX_DELTA_CHUNK = 100_000;

/**
 * One native delta → one or more `run.message_delta` events that rejoin exactly. Called only for
 * a frame the correlator attributed to the run, i.e. whose turn scope is already checked.
 */
export function translateAgentMessageDelta(params: unknown): ProviderEventInput[] {
  const parsed = agentMessageDeltaBodySchema.safeParse(params);
  if (!parsed.success) return [];
  const text = parsed.data.delta;
  if (text.length <= MAX_DELTA_CHUNK) return [{ payload: { type: 'run.message_delta', text } }];
  const events: ProviderEventInput[] = [];
  for (let i = 0; i < text.length;) {
    let end = Math.min(i + MAX_DELTA_CHUNK, text.length);
    // never split a surrogate pair across two events
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    events.push({ payload: { type: 'run.message_delta', text: text.slice(i, end) } });
    i = end;
  }
  return events;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const USAGE_FIELDS = [
  ['inputTokens', 'inputTokens'],
  ['outputTokens', 'outputTokens'],
  ['totalTokens', 'totalTokens'],
] as const;

/** `run.usage` from `tokenUsage.last` (per-turn), never the cumulative thread `total`. */
export function translateTokenUsage(params: unknown): ProviderEventInput | undefined {
  const parsed = tokenUsageUpdatedSchema.safeParse(params);
  if (!parsed.success) return undefined;
  const last = parsed.data.tokenUsage.last;
  const usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } = {};
  let any = false;
  for (const [native, neutral] of USAGE_FIELDS) {
    const value = last[native];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
      usage[neutral] = value;
      any = true;
    }
  }
  return any ? { payload: { type: 'run.usage', usage } } : undefined;
}

export type CodexErrorClassification = TurnErrorClassification;

const KNOWN: readonly string[] = TURN_ERROR_CLASSIFICATIONS.filter((c) => c !== 'unclassified');

/**
 * Reads only a plain string or the single key of a one-key object. Values added by later
 * releases, the 0.168 catch-all and anything malformed are `unclassified`.
 */
export function classifyCodexErrorInfo(info: unknown): CodexErrorClassification {
  let candidate: string | undefined;
  if (typeof info === 'string') candidate = info;
  else if (info !== null && typeof info === 'object' && !Array.isArray(info)) {
    const keys = Object.keys(info);
    if (keys.length === 1) candidate = keys[0];
  }
  return candidate !== undefined && KNOWN.includes(candidate)
    ? (candidate as CodexErrorClassification)
    : 'unclassified';
}

export function agentErrorCodeOf(classification: CodexErrorClassification): AgentErrorCode {
  return (TURN_ERROR_RETRYABLE_CLASSIFICATIONS as readonly string[]).includes(classification)
    ? 'provider_unavailable'
    : 'provider_rejected';
}

/** A mid-turn `error` is progress information, not an outcome. */
export function translateMidTurnError(params: unknown): ProviderEventInput {
  const parsed = errorNotificationSchema.safeParse(params);
  const classification = parsed.success
    ? classifyCodexErrorInfo(parsed.data.error.codexErrorInfo)
    : 'unclassified';
  const retrying = parsed.success && parsed.data.willRetry === true;
  return {
    payload: {
      type: 'diagnostic',
      level: 'warning',
      message: `codex reported a mid-turn error (${classification}); ${retrying ? 'the server is retrying' : 'the server is not retrying'}`,
      detail: { classification, willRetry: retrying },
    },
  };
}

/** `turn/completed` → the run's single termination. Status is read from the frame only. */
export function terminationOfCompletedTurn(turn: {
  status?: unknown;
  error?: unknown;
}): ProviderRunTermination {
  switch (turn.status) {
    case 'completed':
      return { outcome: 'succeeded' };
    case 'interrupted':
      return { outcome: 'interrupted' };
    case 'failed': {
      const info =
        turn.error !== null && typeof turn.error === 'object' && !Array.isArray(turn.error)
          ? (turn.error as Record<string, unknown>)['codexErrorInfo']
          : undefined;
      const classification = classifyCodexErrorInfo(info);
      return {
        outcome: 'failed',
        error: codexError(
          agentErrorCodeOf(classification),
          `codex turn failed (${classification})`,
          { providerCode: classification },
        ),
      };
    }
    case 'inProgress':
      return {
        outcome: 'failed',
        error: codexError(
          'provider_contract_violation',
          'codex completed the turn with an unusable status',
          { providerCode: 'inProgress' },
        ),
      };
    default:
      return {
        outcome: 'failed',
        error: codexError(
          'provider_contract_violation',
          'codex completed the turn with an unusable status',
          { providerCode: 'unknown_status' },
        ),
      };
  }
}
