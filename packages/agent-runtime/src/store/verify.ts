import { messageDeltaPayloadSchema } from '@relvo-labs/agent-provider';
import {
  EnvelopeHeaderJudge,
  eventPayloadSchema,
  type EventEnvelope,
  type EventPayload,
} from '../envelope.js';
import { RuntimeError } from '../errors.js';
import { flatPayload } from '../session/flat-payloads.js';

/*
 * Rows read back from a store are checked before anyone sees them: a damaged log (a row
 * deleted, edited or written by something else) is a typed `log_corrupt`, never a history with
 * a hole in it, an object of the wrong shape, or a reader that loops on a sequence that is not
 * there.
 */

/** What is wrong at the sequence: missing, not JSON, or not an envelope of the schema. */
export type LogDamage = 'missing' | 'unparsable' | 'invalid';

/** The details name the sequence and the kind of damage only: no row content, no session id. */
export function logCorrupt(sequence: number, damage: LogDamage): RuntimeError {
  return new RuntimeError('store_unavailable', 'log_corrupt', 'the stored event log is damaged', {
    details: { sequence, damage },
  });
}

/** JSON.parse, or `log_corrupt` at `sequence` (the driver's message is not kept). */
export function parseStored(text: unknown, sequence: number): unknown {
  if (typeof text !== 'string') throw logCorrupt(sequence, 'unparsable');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw logCorrupt(sequence, 'unparsable');
  }
}

const DELTA_MAX = messageDeltaPayloadSchema.shape.text.maxLength ?? 0;

/** A message delta's text as a row holds it (bare): the schema's bounds, without a parse. */
export function deltaText(text: string, sequence: number): EventPayload {
  if (text.length === 0 || text.length > DELTA_MAX) throw logCorrupt(sequence, 'invalid');
  return { type: 'run.message_delta', text };
}

function isDeltaShaped(value: unknown): value is { text: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    v.type === 'run.message_delta' && typeof v.text === 'string' && Object.keys(v).length === 2
  );
}

/** A payload by the schema: the runtime's flat payloads member by member, the rest in full. */
export function checkedPayload(value: unknown, sequence: number): EventPayload {
  if (isDeltaShaped(value)) return deltaText(value.text, sequence);
  const flat = flatPayload(value);
  if (flat !== undefined) return flat;
  const parsed = eventPayloadSchema.safeParse(value);
  if (!parsed.success) throw logCorrupt(sequence, 'invalid');
  return parsed.data;
}

/**
 * One read's checks: every envelope's header by the schema, and the sequences gapless from the
 * one asked for up to the session's last (when the read stops short of its limit).
 */
export class ReadCheck {
  readonly #judge = new EnvelopeHeaderJudge();
  #expected: number;

  constructor(fromSequence: number) {
    this.#expected = fromSequence;
  }

  /** The sequence the next envelope must carry. */
  get expected(): number {
    return this.#expected;
  }

  /** `envelope` as read, once its sequence follows the last and its header is valid. */
  accept(envelope: EventEnvelope): EventEnvelope {
    if (envelope.sequence !== this.#expected) throw logCorrupt(this.#expected, 'missing');
    if (!this.#judge.accepts(envelope)) throw logCorrupt(envelope.sequence, 'invalid');
    this.#expected += 1;
    return envelope;
  }

  /**
   * After a read that returned `count` of `limit`: a short read must have reached the session's
   * last sequence, and nothing may lie beyond it.
   */
  end(count: number, limit: number, lastSequence: number): void {
    const reached = this.#expected - 1;
    if (count < limit && reached < lastSequence) throw logCorrupt(this.#expected, 'missing');
    if (count > 0 && reached > lastSequence) throw logCorrupt(lastSequence + 1, 'invalid');
  }
}
