/**
 * (threadId, turnId) routing for one session's thread. Decides, per decoded notification,
 * whether it belongs to the active run, must wait for the run's turn id, or is foreign.
 * Holds no I/O; the session applies what this hands back. Bounded: what waits for a turn id
 * is at most `SPI_LIMITS.preBindingEmissions` emissions (the runtime stages exactly as many
 * before `startRun` returns) plus a few terminals; more fails the run instead of being lost.
 */
import { OldestFirstMemory, SPI_LIMITS } from '@relvo-labs/agent-provider';
import type { InboundNotification } from '../protocol/inbound.js';
import { MAX_DELTA_CHUNK } from './translate.js';

/** A notification held before the active run learned its turn id (it has a turn scope). */
export type BufferedFrame = InboundNotification & { readonly turnId: string };

export const MAX_PENDING_TERMINALS = 16;
export const MAX_RETIRED_TURNS = 64;

export type RouteDecision =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'foreign' }
  | { readonly kind: 'buffered' }
  | { readonly kind: 'output_overflow' }
  | { readonly kind: 'terminal_overflow' }
  | { readonly kind: 'apply' };

// one frozen object per decision: routing runs for every frame and allocates nothing itself
const IGNORE: RouteDecision = Object.freeze({ kind: 'ignore' });
const FOREIGN: RouteDecision = Object.freeze({ kind: 'foreign' });
const BUFFERED: RouteDecision = Object.freeze({ kind: 'buffered' });
const OUTPUT_OVERFLOW: RouteDecision = Object.freeze({ kind: 'output_overflow' });
const TERMINAL_OVERFLOW: RouteDecision = Object.freeze({ kind: 'terminal_overflow' });
const APPLY: RouteDecision = Object.freeze({ kind: 'apply' });

/** What the correlator reads of the active run: the turn id the run holds once bound. */
export interface TurnOwner {
  readonly turnId: string | undefined;
}

/** At most how many run emissions one held frame can make when it is applied. */
function emissionsOf(frame: BufferedFrame): number {
  return frame.method === 'item/agentMessage/delta'
    ? Math.ceil(frame.delta.length / MAX_DELTA_CHUNK)
    : 1;
}

export class TurnCorrelator {
  readonly threadId: string;
  readonly #retired = new OldestFirstMemory<string, true>(MAX_RETIRED_TURNS);
  /** The active run; its turn id is the run's, asked here, never copied. */
  #active: TurnOwner | undefined;
  /** Whether `#checkedTurn` is among the retired turns (cleared by retire). */
  #checkedTurn: string | undefined;
  #checkedRetired = false;
  #buffer: BufferedFrame[] = [];
  #emissions = 0;
  #terminals = 0;

  constructor(threadId: string) {
    this.threadId = threadId;
  }

  get hasActiveRun(): boolean {
    return this.#active !== undefined;
  }

  /** The run is active before `turn/start` goes out, so early frames are held. */
  beginRun(owner: TurnOwner): void {
    this.#active = owner;
    this.#resetBuffer();
  }

  /**
   * The frames held before the run was bound, in arrival order, of its turn and others alike
   * (another turn's usage still moves the run's starting point). Empties the hold.
   */
  releaseHeld(): readonly BufferedFrame[] {
    const held = this.#buffer;
    this.#resetBuffer();
    return held;
  }

  endRun(): void {
    const turnId = this.#active?.turnId;
    if (turnId !== undefined) this.retire(turnId);
    this.#active = undefined;
    this.#resetBuffer();
  }

  retire(turnId: string): void {
    this.#retired.set(turnId, true);
    // remembering one more may also have forgotten the oldest: check the bound turn afresh
    this.#checkedTurn = undefined;
  }

  isRetired(turnId: string): boolean {
    return this.#retired.has(turnId);
  }

  /** Routing order of docs/behaviour.md §6.3 (serverRequest/resolved is handled by the caller). */
  route(frame: InboundNotification): RouteDecision {
    const threadId = frame.threadId;
    const turnId = 'turnId' in frame ? frame.turnId : undefined;
    if (threadId === undefined || turnId === undefined) return IGNORE;
    if (threadId !== this.threadId) return FOREIGN;
    const active = this.#active;
    const bound = active?.turnId;
    // the bound turn's own frames (nearly all of them) skip the lookup: its answer is kept
    if (bound === turnId) {
      if (bound !== this.#checkedTurn) this.#checkRetired(bound);
      return this.#checkedRetired ? FOREIGN : APPLY;
    }
    // retired turns are checked before buffering so a finished turn's tail cannot crowd
    // out the frames the next run depends on
    if (this.#retired.has(turnId)) return FOREIGN;
    if (active === undefined) return FOREIGN;
    // not bound yet: held until the turn id is known; bound to another turn: foreign
    return bound === undefined ? this.#hold(frame as BufferedFrame) : FOREIGN;
  }

  #checkRetired(turnId: string): void {
    this.#checkedTurn = turnId;
    this.#checkedRetired = this.#retired.has(turnId);
  }

  #hold(frame: BufferedFrame): RouteDecision {
    if (frame.method === 'turn/completed') {
      if (this.#terminals >= MAX_PENDING_TERMINALS) return TERMINAL_OVERFLOW;
      this.#terminals += 1;
    } else {
      const emissions = this.#emissions + emissionsOf(frame);
      if (emissions > SPI_LIMITS.preBindingEmissions) return OUTPUT_OVERFLOW;
      this.#emissions = emissions;
    }
    this.#buffer.push(frame);
    return BUFFERED;
  }

  #resetBuffer(): void {
    this.#buffer = [];
    this.#emissions = 0;
    this.#terminals = 0;
  }
}
