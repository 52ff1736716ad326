/**
 * One provider session = one app-server connection and one ephemeral thread. Owns admission,
 * the correlator, run settlement on connection end, fencing and disposal.
 */
import {
  agentError,
  ProviderRejection,
  type InteractionResponse,
  type ProviderEventInput,
  type ProviderEventSink,
  type ProviderRun,
  type ProviderRunRequest,
  type ProviderSession,
} from '@relvo-labs/agent-provider';
import { CODEX_DISPOSED_REASON } from '../constants.js';
import { isAuthoritativeFailure } from '../rpc/wire-errors.js';
import type { RpcEnd, ServerRequestOffer } from '../rpc/client.js';
import { causeTokenOf } from '../shared/cause-token.js';
import type { FenceReason } from '../shared/tokens.js';
import type { CodexResourceUsage, CodexTransport } from '../transport/types.js';
import {
  CODEX_CLIENT_METHOD,
  CODEX_NOTIFICATION,
  serverRequestResolvedSchema,
  turnStartResultSchema,
} from '../wire/codex.js';
import { TurnCorrelator } from './correlator.js';
import { CodexRun, type RunHost } from './run.js';
import { applyTurnFrame } from './apply.js';
import {
  connectionEnded,
  foreignTrafficDropped,
  preBindingOutputLost,
  sessionFenced,
} from './diagnostics.js';

/** What the session needs from the JSON-RPC client. */
export interface SessionConnection {
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params?: unknown): void;
}

/** The interaction bridges as the session drives them (absent when no bridge is enabled). */
export interface SessionInteractions {
  /** A server request; false hands it back unhandled (the client declines it with -32601). */
  offer(offer: ServerRequestOffer): boolean;
  respond(providerRef: string, response: InteractionResponse): Promise<void>;
  /** `serverRequest/resolved` for this session's thread. */
  resolved(requestId: string | number): void;
  /** Retire every entry the run owns (its completion, or interrupt initiation). */
  retireRun(run: CodexRun): void;
  /** Retire everything (disposal, stream end). */
  retireAll(cause: 'dispose' | 'stream_end'): void;
}

/** Remembered runRefs for startRun idempotency; older ones are forgotten. */
const MAX_REMEMBERED_RUN_REFS = 64;

export interface CodexSessionParams {
  readonly threadId: string;
  readonly connection: SessionConnection;
  readonly transport: CodexTransport;
  readonly sink: ProviderEventSink;
}

function rejection(...args: Parameters<typeof agentError>): Promise<never> {
  return Promise.reject(new ProviderRejection(agentError(...args)));
}

export class CodexSession implements ProviderSession, RunHost {
  readonly #threadId: string;
  readonly #connection: SessionConnection;
  readonly #transport: CodexTransport;
  readonly #sink: ProviderEventSink;
  readonly #correlator: TurnCorrelator;
  /** The startRun promise per runRef: an exact retry shares it, even while turn/start is pending. */
  readonly #runsByRef = new Map<string, Promise<ProviderRun>>();
  #interactions: SessionInteractions | undefined;
  #active: CodexRun | undefined;
  #fence: FenceReason | undefined;
  #ended: RpcEnd | undefined;
  #disposing = false;
  #disposed = false;
  #disposeAttempt: Promise<void> | undefined;
  #foreignReported = false;
  /** Turn ids of runs that failed before binding: interrupted once when their id shows up. */
  readonly #orphanedTurnStarts = new Set<CodexRun>();

  constructor(params: CodexSessionParams) {
    this.#threadId = params.threadId;
    this.#connection = params.connection;
    this.#transport = params.transport;
    this.#sink = params.sink;
    this.#correlator = new TurnCorrelator(params.threadId);
  }

  attachInteractions(interactions: SessionInteractions): void {
    this.#interactions = interactions;
  }

  get threadId(): string {
    return this.#threadId;
  }

  get activeRun(): CodexRun | undefined {
    return this.#active;
  }

  get ended(): boolean {
    return this.#ended !== undefined;
  }

  get closing(): boolean {
    return this.#disposing || this.#disposed;
  }

  get fenced(): boolean {
    return this.#fence !== undefined;
  }

  // ---- SPI -------------------------------------------------------------------------------

  startRun(request: ProviderRunRequest): Promise<ProviderRun> {
    try {
      return this.#admit(request);
    } catch {
      // a malformed request throws while being read, before any state changed: nothing sent
      return rejection('invalid_request', 'the codex run request is malformed');
    }
  }

  #admit(request: ProviderRunRequest): Promise<ProviderRun> {
    if (this.#disposing || this.#disposed) {
      return rejection('session_closed', 'the codex session is closed');
    }
    const existing = this.#runsByRef.get(request.runRef);
    if (existing !== undefined) return existing;
    if (this.#fence !== undefined) {
      return rejection(
        'illegal_state_transition',
        'the codex session is fenced and must be disposed',
        {
          providerCode: 'session_fenced',
        },
      );
    }
    if (this.#ended !== undefined) {
      return rejection('provider_unavailable', 'the codex connection has ended', {
        providerCode: 'connection_closed',
      });
    }
    if (this.#active !== undefined) {
      return rejection('illegal_state_transition', 'a codex run is already active in this session');
    }
    const parts = request.input.parts;
    const unsupported = parts.filter((p) => p.type !== 'text').map((p) => p.type);
    if (unsupported.length > 0) {
      return rejection('capability_unsupported', 'codex accepts text input parts only', {
        details: {
          capability: 'turnInput.parts',
          supported: ['text'],
          requested: [...new Set(unsupported)],
        },
      });
    }
    const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n\n');
    const run = new CodexRun(request.runRef, request.sink, this);
    this.#active = run;
    this.#correlator.beginRun();
    const started = this.#startTurn(run, text);
    this.#remember(run.runRef, started);
    return started;
  }

  respondToInteraction(providerRef: string, response: InteractionResponse): Promise<void> {
    const interactions = this.#interactions;
    if (interactions === undefined) {
      return rejection('unknown_interaction', 'this codex session raises no interactions');
    }
    return interactions.respond(providerRef, response);
  }

  dispose(): Promise<void> {
    if (this.#disposed) return Promise.resolve();
    if (this.#disposeAttempt !== undefined) return this.#disposeAttempt;
    this.#disposing = true;
    this.#interactions?.retireAll('dispose');
    const attempt = (async () => {
      // yield first so a synchronous throw inside close() cannot cache a rejected promise
      await Promise.resolve();
      try {
        await this.#transport.close();
      } catch (error) {
        this.#disposeAttempt = undefined;
        const token = causeTokenOf(error);
        throw new ProviderRejection(
          agentError('provider_rejected', `codex app-server teardown failed (${token})`, {
            details: { cause: token },
          }),
          { cause: error },
        );
      }
      this.#disposed = true;
      this.#active?.settle({ outcome: 'interrupted', reason: CODEX_DISPOSED_REASON });
    })();
    this.#disposeAttempt = attempt;
    return attempt;
  }

  /**
   * RSS and CPU of the app-server's process group (leader plus recorded members), when the
   * transport can measure it; undefined for a host transport that cannot.
   */
  async resourceUsage(): Promise<CodexResourceUsage | undefined> {
    return this.#transport.resourceUsage?.();
  }

  // ---- connection events -----------------------------------------------------------------

  handleNotification(method: string, params: unknown): void {
    if (method === CODEX_NOTIFICATION.serverRequestResolved) {
      this.#onServerRequestResolved(params);
      return;
    }
    const decision = this.#correlator.route(method, params);
    switch (decision.kind) {
      case 'ignore':
      case 'buffered':
        return;
      case 'foreign':
        this.#reportForeign();
        return;
      case 'terminal_overflow':
        this.#onTerminalOverflow();
        return;
      case 'apply': {
        const run = this.#active;
        if (run !== undefined) applyTurnFrame(run, method, params);
        return;
      }
    }
  }

  handleEnd(end: RpcEnd): void {
    if (this.#ended !== undefined) return;
    this.#ended = end;
    this.#interactions?.retireAll('stream_end');
    if (this.#disposing || this.#disposed) return;
    const token = end.kind === 'eof' ? 'eof' : end.causeToken;
    this.#emitSession(connectionEnded(end.kind, token));
    // EOF never implies success or interruption
    this.#active?.settle({
      outcome: 'failed',
      error: agentError('provider_unavailable', `codex connection ended (${token})`, {
        providerCode: 'connection_lost',
      }),
    });
  }

  handleServerRequest(offer: ServerRequestOffer): boolean {
    return this.#interactions?.offer(offer) ?? false;
  }

  /** The client's server-request ledger overflowed: no run can be trusted on this connection. */
  handleLedgerOverflow(): void {
    this.#fenceSession('server_request_ledger_overflow');
    this.#active?.settle({
      outcome: 'failed',
      error: agentError(
        'provider_contract_violation',
        'too many codex server requests on one connection',
        {
          providerCode: 'session_fenced',
        },
      ),
    });
  }

  // ---- RunHost ---------------------------------------------------------------------------

  sendInterrupt(run: CodexRun): Promise<void> {
    const turnId = run.turnId;
    if (turnId === undefined) return Promise.resolve();
    return this.#connection
      .request(CODEX_CLIENT_METHOD.turnInterrupt, { threadId: this.#threadId, turnId })
      .then(() => undefined);
  }

  beginInterrupt(run: CodexRun): void {
    this.#interactions?.retireRun(run);
  }

  finalize(run: CodexRun): void {
    if (this.#active === run) {
      this.#active = undefined;
      this.#correlator.endRun();
    } else if (run.turnId !== undefined) {
      this.#correlator.retire(run.turnId);
    }
    this.#interactions?.retireRun(run);
  }

  // ---- internals -------------------------------------------------------------------------

  async #startTurn(run: CodexRun, text: string): Promise<ProviderRun> {
    let result: unknown;
    try {
      result = await this.#connection.request(CODEX_CLIENT_METHOD.turnStart, {
        threadId: this.#threadId,
        input: [{ type: 'text', text }],
      });
    } catch (error) {
      const authoritative = isAuthoritativeFailure(error);
      const closing = this.#disposing || this.#disposed;
      // a turn may be running: another turn/start could steer it. This holds even when the
      // connection's end already failed the run (stdout EOF does not stop the process).
      if (!authoritative && !closing) this.#fenceSession('turn_start_unacknowledged');
      if (run.settled) return run;
      if (authoritative) {
        // the server provably admitted nothing: forget the run, the session stays usable
        this.#runsByRef.delete(run.runRef);
        if (this.#active === run) {
          this.#active = undefined;
          this.#correlator.endRun();
        }
        throw error;
      }
      // disposal owns this run: it ends interrupted once a teardown attempt succeeds (§6.6)
      if (closing) return run;
      const token = causeTokenOf(error);
      run.settle({
        outcome: 'failed',
        error: agentError('provider_unavailable', `codex did not acknowledge the turn (${token})`, {
          providerCode: providerCodeOf(error) ?? 'connection_lost',
        }),
      });
      return run;
    }
    const parsed = turnStartResultSchema.safeParse(result);
    if (!parsed.success) {
      this.#fenceSession('turn_start_unusable_id');
      run.settle({
        outcome: 'failed',
        error: agentError(
          'provider_contract_violation',
          'codex started a turn without a usable id',
          {
            providerCode: 'session_fenced',
          },
        ),
      });
      return run;
    }
    const turnId = parsed.data.turn.id;
    if (run.settled) {
      // failed before binding (terminal overflow, connection end): stop the native turn once
      this.#correlator.retire(turnId);
      if (run.failedBeforeBinding && !this.#orphanedTurnStarts.has(run)) {
        this.#orphanedTurnStarts.add(run);
        this.#connection
          .request(CODEX_CLIENT_METHOD.turnInterrupt, { threadId: this.#threadId, turnId })
          .catch(() => undefined);
      }
      return run;
    }
    run.turnId = turnId;
    const bound = this.#correlator.bind(turnId);
    if (bound.outputLost) {
      run.emit(preBindingOutputLost());
    }
    if (bound.foreignDropped > 0) this.#reportForeign();
    // applyTurnFrame ignores frames once the run has settled (e.g. a buffered turn/completed)
    for (const frame of bound.frames) applyTurnFrame(run, frame.method, frame.params);
    return run;
  }

  #onTerminalOverflow(): void {
    const run = this.#active;
    this.#fenceSession('unattributable_terminal_overflow');
    if (run === undefined || run.settled) return;
    run.failedBeforeBinding = true;
    run.settle({
      outcome: 'failed',
      error: agentError(
        'provider_contract_violation',
        'too many codex turn completions arrived before the turn was bound',
        {
          providerCode: 'pre_binding_terminal_overflow',
        },
      ),
    });
  }

  #onServerRequestResolved(params: unknown): void {
    const parsed = serverRequestResolvedSchema.safeParse(params);
    if (!parsed.success) return;
    if (parsed.data.threadId !== this.#threadId) {
      this.#reportForeign();
      return;
    }
    this.#interactions?.resolved(parsed.data.requestId);
  }

  #fenceSession(reason: FenceReason): void {
    if (this.#fence !== undefined) return;
    this.#fence = reason;
    this.#emitSession(sessionFenced(reason));
  }

  #reportForeign(): void {
    if (this.#foreignReported) return;
    this.#foreignReported = true;
    this.#emitSession(foreignTrafficDropped());
  }

  #remember(runRef: string, started: Promise<ProviderRun>): void {
    this.#runsByRef.set(runRef, started);
    while (this.#runsByRef.size > MAX_REMEMBERED_RUN_REFS) {
      const oldest = this.#runsByRef.keys().next();
      if (oldest.done === true) break;
      this.#runsByRef.delete(oldest.value);
    }
  }

  emitSessionDiagnostic(event: ProviderEventInput): void {
    this.#emitSession(event);
  }

  #emitSession(event: ProviderEventInput): void {
    try {
      this.#sink.emit(event);
    } catch {
      // a host sink that throws must not break the data path
    }
  }
}

function providerCodeOf(error: unknown): string | undefined {
  if (error !== null && typeof error === 'object' && 'agentError' in error) {
    const inner = (error as { agentError?: { providerCode?: unknown } }).agentError;
    if (typeof inner?.providerCode === 'string') return inner.providerCode;
  }
  return undefined;
}
