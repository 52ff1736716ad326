/**
 * The facts of one session, owned here and changed only through what they mean: its thread and
 * turn routing (the correlator), the active run, why it is fenced, how its connection ended,
 * whether it is closing, the thread's token total. `snapshot()` is the one read the interaction
 * owner check makes.
 */
import type { ProviderEventInput, ProviderEventSink } from '@relvo-labs/agent-provider';
import type { InboundNotification, ServerRequestScope, UsageTotals } from '../protocol/inbound.js';
import type { RpcEnd, ServerRequestOffer } from '../rpc/client.js';
import { declineServerRequest } from '../rpc/server-requests.js';
import { callSafely } from '../shared/call-safely.js';
import { TurnCorrelator, type BufferedFrame, type RouteDecision } from './correlator.js';
import { foreignTrafficDropped, sessionFenced } from './diagnostics.js';
import type { CodexRun } from './run.js';
import { ZERO_USAGE } from './run-usage.js';

/** docs/behaviour.md §10.3 / §6.7: why a session was fenced. */
// prettier-ignore
export type FenceReason =
  | 'turn_start_unacknowledged' | 'turn_start_unusable_id' | 'unattributable_terminal_overflow'
  | 'server_request_ledger_overflow' | 'turn_stalled_unresponsive' | 'pre_binding_overflow';

/** Server requests held for a run not yet bound; more are offered (and refused) as ever. */
const MAX_HELD_REQUESTS = 64;

/** The session as the interaction owner check sees it, read at once. */
export interface SessionSnapshot {
  readonly threadId: string;
  /** Disposing, disposed, or the connection ended. */
  readonly closing: boolean;
  readonly fenced: boolean;
  readonly run: CodexRun | undefined;
}

export interface SessionStateParams {
  readonly threadId: string;
  readonly sink: ProviderEventSink;
  /** Hold the host's event loop open while a run is active. */
  readonly keepAlive?: (on: boolean) => void;
  /** A resumed thread's total so far, when codex replayed it during the handshake (ADR-0012). */
  readonly threadTotal?: UsageTotals | undefined;
  /** After a resume, codex replays this (earlier) turn's frames: never a run's. */
  readonly replayedTurnId?: string | undefined;
}

export class SessionState {
  readonly threadId: string;
  readonly #sink: ProviderEventSink;
  readonly #keepAlive: (on: boolean) => void;
  readonly #correlator: TurnCorrelator;
  #active: CodexRun | undefined;
  #end: RpcEnd | undefined;
  #threadTotal: UsageTotals;
  #disposing = false;
  #disposed = false;
  /** The last turn bound on this thread (exported in a recovery record). Never published. */
  #lastTurnId: string | undefined;
  #fence: FenceReason | undefined;
  #foreignReported = false;
  #heldRequests: ServerRequestOffer[] = [];

  constructor(params: SessionStateParams) {
    this.threadId = params.threadId;
    this.#sink = params.sink;
    this.#keepAlive = params.keepAlive ?? (() => undefined);
    this.#threadTotal = params.threadTotal ?? ZERO_USAGE;
    this.#correlator = new TurnCorrelator(params.threadId);
    this.#lastTurnId = params.replayedTurnId;
    if (params.replayedTurnId !== undefined) this.#correlator.retire(params.replayedTurnId);
  }

  get active(): CodexRun | undefined {
    return this.#active;
  }

  get ended(): RpcEnd | undefined {
    return this.#end;
  }

  get fence(): FenceReason | undefined {
    return this.#fence;
  }

  get threadTotal(): UsageTotals {
    return this.#threadTotal;
  }

  get lastTurnId(): string | undefined {
    return this.#lastTurnId;
  }

  get closing(): boolean {
    return this.#disposing || this.#disposed;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  snapshot(): SessionSnapshot {
    return {
      threadId: this.threadId,
      closing: this.closing || this.#end !== undefined,
      fenced: this.#fence !== undefined,
      run: this.#active,
    };
  }

  /** Emits on the session's sink; a host sink that throws must not break the data path. */
  emit(event: ProviderEventInput): void {
    callSafely(() => {
      this.#sink.emit(event);
    });
  }

  /** The first reason wins and is reported once; a fenced session admits no further run. */
  fenceSession(reason: FenceReason): void {
    if (this.#fence !== undefined) return;
    this.#fence = reason;
    this.emit(sessionFenced(reason));
  }

  /** Traffic for another thread or turn is dropped and reported once per session. */
  reportForeign(): void {
    if (this.#foreignReported) return;
    this.#foreignReported = true;
    this.emit(foreignTrafficDropped());
  }

  /** The first end of the connection; false for a later one. */
  noteEnd(end: RpcEnd): boolean {
    if (this.#end !== undefined) return false;
    this.#end = end;
    return true;
  }

  noteThreadTotal(total: UsageTotals): void {
    this.#threadTotal = total;
  }

  /** A revert took the thread's last turns back: its last turn is now `turnId` (or none). */
  noteReverted(turnId: string | undefined): void {
    this.#lastTurnId = turnId;
  }

  beginDisposal(): void {
    this.#disposing = true;
  }

  markDisposed(): void {
    this.#disposed = true;
  }

  route(frame: InboundNotification): RouteDecision {
    return this.#correlator.route(frame);
  }

  /** Admitted: the run is active before `turn/start` goes out, so early frames are held. */
  beginRun(run: CodexRun): void {
    this.#active = run;
    this.#keepAlive(true);
    this.#correlator.beginRun(run);
  }

  /** The active run was bound (`CodexRun.bind`): what was held for it, in arrival order. */
  releaseHeld(): readonly BufferedFrame[] {
    return this.#correlator.releaseHeld();
  }

  /**
   * A server request that came while the active run was not yet bound: the turn/start reply and
   * the request can arrive in one read of the pipe, and the run binds only once the reply's
   * awaiter resumes. Held (at most MAX_HELD_REQUESTS) until `releaseHeldRequests`; false when
   * it is not this case or the hold is full (the caller then offers it as ever).
   */
  holdRequest(offer: ServerRequestOffer, scope: ServerRequestScope): boolean {
    const run = this.#active;
    if (run === undefined || run.turnId !== undefined || run.settled) return false;
    if (scope.threadId !== this.threadId || scope.turnId === undefined) return false;
    if (this.#correlator.isRetired(scope.turnId)) return false;
    if (this.#heldRequests.length >= MAX_HELD_REQUESTS) return false;
    this.#heldRequests.push(offer);
    return true;
  }

  /** The requests held before the run was bound, in arrival order; empties the hold. */
  releaseHeldRequests(): readonly ServerRequestOffer[] {
    return this.#heldRequests.splice(0);
  }

  /** A turn whose run already settled: its late frames are foreign. */
  retire(turnId: string): void {
    this.#correlator.retire(turnId);
  }

  /** The one place the active run is cleared: its turn retired, the event loop let go. */
  endRun(run: CodexRun): void {
    if (run.turnId !== undefined) this.#lastTurnId = run.turnId;
    if (this.#active === run) {
      this.#active = undefined;
      this.#keepAlive(false);
      this.#correlator.endRun();
      // a run that ends unbound never takes what was held for it: each answered, declined
      for (const offer of this.#heldRequests.splice(0)) declineServerRequest(offer);
    } else if (run.turnId !== undefined) {
      this.#correlator.retire(run.turnId);
    }
  }
}
