/**
 * (threadId, turnId) routing for one session's thread. Decides, per inbound notification,
 * whether it belongs to the active run, must wait for the run's turn id, or is foreign.
 * Holds no I/O; the session applies what this hands back.
 */
import { CODEX_NOTIFICATION } from '../protocol/vocabulary.js';
import { OldestFirstMemory } from '@relvo-labs/agent-provider';

export interface Correlation {
  readonly threadId: string;
  readonly turnId: string;
}

/** Frame buffered before the active run learned its turn id. */
export interface BufferedFrame {
  readonly method: string;
  readonly params: unknown;
  readonly correlation: Correlation;
  readonly terminal: boolean;
}

export const MAX_BUFFERED_FRAMES = 512;
export const MAX_PENDING_TERMINALS = 16;
export const MAX_RETIRED_TURNS = 64;

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** `turnId` directly, else `turn.id`; both members must be non-empty strings. */
export function correlationOf(params: unknown): Correlation | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const record = params as Record<string, unknown>;
  const threadId = record['threadId'];
  if (!nonEmptyString(threadId)) return undefined;
  let turnId = record['turnId'];
  if (turnId === undefined) {
    const turn = record['turn'];
    if (turn !== null && typeof turn === 'object' && !Array.isArray(turn)) {
      turnId = (turn as Record<string, unknown>)['id'];
    }
  }
  return nonEmptyString(turnId) ? { threadId, turnId } : undefined;
}

export type RouteDecision =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'foreign' }
  | { readonly kind: 'buffered' }
  | { readonly kind: 'terminal_overflow' }
  | { readonly kind: 'apply' };

// one frozen object per decision: routing runs for every frame and allocates nothing itself
const IGNORE: RouteDecision = Object.freeze({ kind: 'ignore' });
const FOREIGN: RouteDecision = Object.freeze({ kind: 'foreign' });
const BUFFERED: RouteDecision = Object.freeze({ kind: 'buffered' });
const TERMINAL_OVERFLOW: RouteDecision = Object.freeze({ kind: 'terminal_overflow' });
const APPLY: RouteDecision = Object.freeze({ kind: 'apply' });

export interface BindResult {
  /** Frames of the bound turn, in arrival order. */
  readonly frames: readonly BufferedFrame[];
  /** Output was dropped or evicted before binding (the outcome never is). */
  readonly outputLost: boolean;
  /** Buffered frames of other turns that were discarded. */
  readonly foreignDropped: number;
}

export class TurnCorrelator {
  readonly threadId: string;
  readonly #retired = new OldestFirstMemory<string, true>(MAX_RETIRED_TURNS);
  #active: { turnId: string | undefined } | undefined;
  /** Whether the bound turn id is among the retired ones (kept exact by bind and retire). */
  #activeRetired = false;
  #buffer: BufferedFrame[] = [];
  #terminals = 0;
  #outputLost = false;

  constructor(threadId: string) {
    this.threadId = threadId;
  }

  get activeTurnId(): string | undefined {
    return this.#active?.turnId;
  }

  get hasActiveRun(): boolean {
    return this.#active !== undefined;
  }

  /** The run is active before `turn/start` goes out, so early frames are held. */
  beginRun(): void {
    this.#active = { turnId: undefined };
    this.#resetBuffer();
  }

  bind(turnId: string): BindResult {
    const active = this.#active;
    if (active === undefined) return { frames: [], outputLost: false, foreignDropped: 0 };
    active.turnId = turnId;
    this.#activeRetired = this.#retired.has(turnId);
    const frames = this.#buffer.filter((f) => f.correlation.turnId === turnId);
    const result = {
      frames,
      outputLost: this.#outputLost,
      foreignDropped: this.#buffer.length - frames.length,
    };
    this.#resetBuffer();
    return result;
  }

  endRun(): void {
    const turnId = this.#active?.turnId;
    if (turnId !== undefined) this.retire(turnId);
    this.#active = undefined;
    this.#resetBuffer();
  }

  retire(turnId: string): void {
    this.#retired.set(turnId, true);
    // remembering one more may also have forgotten the oldest
    const bound = this.#active?.turnId;
    if (bound !== undefined) this.#activeRetired = this.#retired.has(bound);
  }

  isRetired(turnId: string): boolean {
    return this.#retired.has(turnId);
  }

  /** Routing order of docs/behaviour.md §6.3 (serverRequest/resolved is handled by the caller). */
  route(method: string, params: unknown): RouteDecision {
    const correlation = correlationOf(params);
    if (correlation === undefined) return IGNORE;
    if (correlation.threadId !== this.threadId) return FOREIGN;
    const active = this.#active;
    // the bound turn's own frames (nearly all of them) skip the lookup: its answer is kept
    if (active?.turnId === correlation.turnId) return this.#activeRetired ? FOREIGN : APPLY;
    // retired turns are checked before buffering so a finished turn's tail cannot crowd
    // out the frames the next run depends on
    if (this.#retired.has(correlation.turnId)) return FOREIGN;
    if (active === undefined) return FOREIGN;
    // not bound yet: held until the turn id is known; bound to another turn: foreign
    return active.turnId === undefined ? this.#buffer_(method, params, correlation) : FOREIGN;
  }

  #buffer_(method: string, params: unknown, correlation: Correlation): RouteDecision {
    const terminal = method === CODEX_NOTIFICATION.turnCompleted;
    if (!terminal) {
      if (this.#buffer.length >= MAX_BUFFERED_FRAMES) {
        this.#outputLost = true;
        return BUFFERED;
      }
      this.#buffer.push({ method, params, correlation, terminal });
      return BUFFERED;
    }
    if (this.#terminals >= MAX_PENDING_TERMINALS) return TERMINAL_OVERFLOW;
    if (this.#buffer.length >= MAX_BUFFERED_FRAMES) {
      const victim = this.#buffer.findIndex((f) => !f.terminal);
      if (victim < 0) return TERMINAL_OVERFLOW;
      this.#buffer.splice(victim, 1);
      this.#outputLost = true;
    }
    this.#buffer.push({ method, params, correlation, terminal });
    this.#terminals += 1;
    return BUFFERED;
  }

  #resetBuffer(): void {
    this.#buffer = [];
    this.#terminals = 0;
    this.#outputLost = false;
  }
}
