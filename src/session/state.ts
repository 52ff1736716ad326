/**
 * The facts of one session, in one place: its thread, the active run, why it is fenced, how
 * its connection ended, whether it is closing. The other session modules read and change them
 * here; `snapshot()` is the one read the interaction owner check makes.
 */
import type { ProviderEventInput, ProviderEventSink } from '@relvo-labs/agent-provider';
import type { FenceReason } from '../protocol/vocabulary.js';
import type { RpcEnd } from '../rpc/client.js';
import { callSafely } from '../shared/call-safely.js';
import { foreignTrafficDropped, sessionFenced } from './diagnostics.js';
import type { CodexRun } from './run.js';
import { ZERO_USAGE, type UsageTotals } from './run-usage.js';

/** The session as the interaction owner check sees it, read at once. */
export interface SessionSnapshot {
  readonly threadId: string;
  /** Disposing, disposed, or the connection ended. */
  readonly closing: boolean;
  readonly fenced: boolean;
  readonly run: CodexRun | undefined;
}

export class SessionState {
  readonly threadId: string;
  readonly #sink: ProviderEventSink;
  active: CodexRun | undefined;
  ended: RpcEnd | undefined;
  /** The thread's running token total as of the last update seen (ADR-0012). */
  threadTotal: UsageTotals = ZERO_USAGE;
  disposing = false;
  disposed = false;
  /** The last turn bound on this thread (exported in a recovery record). Never published. */
  lastTurnId: string | undefined;
  #fence: FenceReason | undefined;
  #foreignReported = false;

  constructor(threadId: string, sink: ProviderEventSink) {
    this.threadId = threadId;
    this.#sink = sink;
  }

  get fence(): FenceReason | undefined {
    return this.#fence;
  }

  get closing(): boolean {
    return this.disposing || this.disposed;
  }

  snapshot(): SessionSnapshot {
    return {
      threadId: this.threadId,
      closing: this.closing || this.ended !== undefined,
      fenced: this.#fence !== undefined,
      run: this.active,
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
}
